/**
 * A quick pass over a whole XML document for the plain XML that test runners write: elements, attributes,
 * text, comments, CDATA and an XML declaration (version 1.0), ASCII names, the five predefined entities and
 * character references. It reports each start and end tag, and checks well-formedness as it goes.
 *
 * It is a fast path, not a parser of its own: whenever the document holds anything outside that subset
 * (a DOCTYPE, a processing instruction, a non-ASCII name, an unusual character) or anything that is not
 * well-formed, it stops and answers false, and the caller parses the document again from the start with the
 * full parser (saxes), which then decides, with its own error messages. So it only has to be right about the
 * documents it accepts: it accepts none that saxes would refuse, and reports the same tags and attribute
 * values for them (attribute value normalization included). `quick-xml-scan.spec.ts` compares the two.
 */

export interface TagEvents {
  /** `attributes` is only built for the element names in `wanted` (an empty object for the others). */
  openTag(name: string, attributes: Record<string, string>): void;
  closeTag(name: string): void;
}

/** Characters the quick pass accepts anywhere; any other (controls, DEL-C1, surrogates, U+FFFE/F) sends the document to the full parser. */
const UNUSUAL_CHAR = /[^\t\n\r\x20-\x7E\xA0-\uD7FF\uE000-\uFFFD]/;
const XML_DECL =
  /<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"1\.0"|'1\.0')(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*\?>/y;
const WHITESPACE_ONLY = /^[ \t\r\n]*$/;
const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6}));/y;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const SLASH = 0x2f;
const LT_BYTE = 0x3c;
const GT = 0x3e;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const AMP = 0x26;

/** 1: may start an (ASCII) name, 2: may continue one. */
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_:]/.test(ch)) NAME_CHAR[c] = 1;
  else if (/[0-9.-]/.test(ch)) NAME_CHAR[c] = 2;
}
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;

const BANG = 0x21;
const QUESTION = 0x3f;

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** The text of `s` from `from` to `to` with every reference decoded; null when one is not a valid reference. */
function decodeReferences(s: string, from: number, to: number): string | null {
  let out = '';
  let at = from;
  while (at < to) {
    const amp = s.indexOf('&', at);
    if (amp < 0 || amp >= to) break;
    out += s.slice(at, amp);
    REFERENCE.lastIndex = amp;
    const m = REFERENCE.exec(s);
    if (!m || REFERENCE.lastIndex > to) return null;
    if (m[1]) out += PREDEFINED[m[1]];
    else {
      const code = m[2] !== undefined ? Number(m[2]) : parseInt(m[3], 16);
      if (!isXmlChar(code)) return null;
      out += String.fromCodePoint(code);
    }
    at = REFERENCE.lastIndex;
  }
  return out + s.slice(at, to);
}

/** Attribute value normalization (XML 1.0 3.3.3, CDATA attributes): literal line ends and tabs become spaces, then references are decoded. */
function attributeValue(raw: string): string | null {
  const spaced = /[\t\n\r]/.test(raw) ? raw.replace(/\r\n?/g, '\n').replace(/[\t\n]/g, ' ') : raw;
  return spaced.includes('&') ? decodeReferences(spaced, 0, spaced.length) : spaced;
}

/**
 * Scans `s`, reporting tags to `events`; true when the whole document was read and is well-formed, false when
 * the full parser must decide (events already reported then are to be thrown away by the caller).
 */
export function quickXmlScan(s: string, events: TagEvents, wanted: ReadonlySet<string>): boolean {
  return quickXmlScanPieces([s], events, wanted);
}

/**
 * The same over a document given in pieces, each starting at a '<' (see `piecesOf`): a tag, a text, a
 * reference never spans two pieces; a comment or CDATA section that does makes the pass give up.
 */
export function quickXmlScanPieces(pieces: Iterable<string>, events: TagEvents, wanted: ReadonlySet<string>): boolean {
  const state: ScanState = { open: [], seen: [], rootSeen: false };
  let first = true;
  for (const piece of pieces) {
    if (!scanPiece(piece, first, state, events, wanted)) return false;
    first = false;
  }
  return state.rootSeen && state.open.length === 0;
}

/**
 * A UTF-8 document as strings of about `size` bytes, each cut just before a '<' (a byte that is never part of
 * a multi-byte character), so that no large string is made whatever the document's size.
 */
export function* piecesOf(content: Buffer, size = 64 * 1024): Generator<string> {
  let at = 0;
  while (at < content.length) {
    let end = at + size >= content.length ? content.length : content.indexOf(LT_BYTE, at + size);
    if (end < 0) end = content.length;
    yield content.toString('utf8', at, end);
    at = end;
  }
}

interface ScanState {
  /** Names of the open elements, innermost last. */
  open: string[];
  /** The attribute names of the tag being read (one array for the whole document). */
  seen: string[];
  rootSeen: boolean;
}

function scanPiece(s: string, first: boolean, state: ScanState, events: TagEvents, wanted: ReadonlySet<string>): boolean {
  if (UNUSUAL_CHAR.test(s)) return false;
  let at = 0;
  if (first) {
    if (s.charCodeAt(0) === 0xfeff) at = 1;
    if (s.startsWith('<?xml', at)) {
      XML_DECL.lastIndex = at;
      if (!XML_DECL.test(s)) return false;
      at = XML_DECL.lastIndex;
    }
  }
  const { open, seen } = state;
  // Next '&' and ']]>' at or after the current text; each is searched again only once passed.
  let nextAmp = s.indexOf('&', at);
  let nextCdataEnd = s.indexOf(']]>', at);
  // The '<' after a start tag, found while reading the tag: where the text after it ends.
  let knownLt = -1;
  while (at < s.length) {
    let lt = knownLt >= at ? knownLt : s.indexOf('<', at);
    if (lt < 0) lt = s.length;
    if (lt > at) {
      // Character data: outside the root only white space; inside, references must be valid and ']]>' is not allowed.
      if (open.length === 0) {
        if (!WHITESPACE_ONLY.test(s.slice(at, lt))) return false;
      } else {
        if (nextAmp >= 0 && nextAmp < at) nextAmp = s.indexOf('&', at);
        if (nextAmp >= 0 && nextAmp < lt && decodeReferences(s, at, lt) === null) return false;
        if (nextCdataEnd >= 0 && nextCdataEnd < at) nextCdataEnd = s.indexOf(']]>', at);
        if (nextCdataEnd >= 0 && nextCdataEnd < lt) return false;
      }
    }
    if (lt >= s.length) break;
    const next = s.charCodeAt(lt + 1);
    if (next === SLASH) {
      // </name S? >, closing the innermost open element.
      const name = open.pop();
      if (name === undefined || !s.startsWith(name, lt + 2)) return false;
      let pos = lt + 2 + name.length;
      while (isSpace(s.charCodeAt(pos))) pos++;
      if (s.charCodeAt(pos) !== GT) return false;
      events.closeTag(name);
      at = pos + 1;
    } else if (next === BANG) {
      if (s.startsWith('<!--', lt)) {
        const end = s.indexOf('-->', lt + 4);
        if (end < 0 || s.indexOf('--', lt + 4) !== end) return false;
        at = end + 3;
      } else if (s.startsWith('<![CDATA[', lt) && open.length > 0) {
        const end = s.indexOf(']]>', lt + 9);
        if (end < 0) return false;
        at = end + 3;
      } else return false;
    } else if (next === QUESTION) {
      return false;
    } else {
      // <name (S name S? = S? "value")* S? /? >: the tag ends before the next '<' (a value may not hold one).
      if (state.rootSeen && open.length === 0) return false;
      let limit = s.indexOf('<', lt + 1);
      if (limit < 0) limit = s.length;
      knownLt = limit;
      let pos = lt + 1;
      if (NAME_CHAR[s.charCodeAt(pos)] !== 1) return false;
      while (NAME_CHAR[s.charCodeAt(pos)]) pos++;
      const name = s.slice(lt + 1, pos);
      const keep = wanted.has(name);
      const attributes: Record<string, string> = keep ? {} : NO_ATTRIBUTES;
      seen.length = 0;
      for (;;) {
        const before = pos;
        while (isSpace(s.charCodeAt(pos))) pos++;
        const c = s.charCodeAt(pos);
        if (c === GT || c === SLASH) break;
        // an attribute: white space before it is required
        if (pos === before || NAME_CHAR[c] !== 1) return false;
        const nameStart = pos;
        while (NAME_CHAR[s.charCodeAt(pos)]) pos++;
        const attribute = s.slice(nameStart, pos);
        while (isSpace(s.charCodeAt(pos))) pos++;
        if (s.charCodeAt(pos) !== EQUALS) return false;
        pos++;
        while (isSpace(s.charCodeAt(pos))) pos++;
        const quote = s.charCodeAt(pos);
        if (quote !== QUOTE && quote !== APOSTROPHE) return false;
        const valueEnd = s.indexOf(quote === QUOTE ? '"' : "'", pos + 1);
        if (valueEnd < 0 || valueEnd >= limit) return false;
        if (seen.length && seen.includes(attribute)) return false;
        seen.push(attribute);
        if (nextAmp >= 0 && nextAmp <= pos) nextAmp = s.indexOf('&', pos);
        const hasReference = nextAmp >= 0 && nextAmp < valueEnd;
        if (keep || hasReference) {
          const value = attributeValue(s.slice(pos + 1, valueEnd));
          if (value === null) return false;
          if (keep) attributes[attribute] = value;
        }
        pos = valueEnd + 1;
      }
      const selfClosing = s.charCodeAt(pos) === SLASH;
      if (selfClosing) pos++;
      if (s.charCodeAt(pos) !== GT) return false;
      state.rootSeen = true;
      events.openTag(name, attributes);
      if (selfClosing) events.closeTag(name);
      else open.push(name);
      at = pos + 1;
    }
  }
  return true;
}
