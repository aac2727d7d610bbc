import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { piecesOf, quickXmlScan, quickXmlScanPieces } from './quick-xml-scan';

const FIXTURES = join(__dirname, '../../../../../test/attestations/fixtures');
const WANTED = new Set(['testsuite', 'testcase', 'failure', 'error']);

type Event = ['open', string, Record<string, string>] | ['close', string];

/** The tags as saxes (the full parser) reports them, or null when it refuses the document. */
function bySaxes(text: string): Event[] | null {
  const events: Event[] = [];
  const parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('opentag', (tag) => events.push(['open', tag.name, WANTED.has(tag.name) ? { ...(tag.attributes as Record<string, string>) } : {}]));
  parser.on('closetag', (tag) => events.push(['close', tag.name]));
  try {
    parser.write(text).close();
  } catch {
    failed = true;
  }
  return failed ? null : events;
}

/** The tags as the quick pass reports them, or null when it leaves the document to the full parser. */
function byQuickScan(text: string, pieceBytes?: number): Event[] | null {
  const events: Event[] = [];
  const sink = { openTag: (name: string, attributes: Record<string, string>) => events.push(['open', name, { ...attributes }]), closeTag: (name: string) => events.push(['close', name]) };
  const read = pieceBytes === undefined ? quickXmlScan(text, sink, WANTED) : quickXmlScanPieces(piecesOf(Buffer.from(text), pieceBytes), sink, WANTED);
  return read ? events : null;
}

describe('quickXmlScan', () => {
  it('reads real reports (jest-junit, surefire) with the same tags and attribute values as saxes', () => {
    for (const file of ['jest-junit.xml', 'TEST-com.example.billing.InvoiceTest.xml', 'TEST-com.example.billing.LedgerTest.xml']) {
      const text = readFileSync(join(FIXTURES, file), 'utf8');
      const quick = byQuickScan(text);
      expect(quick).not.toBeNull();
      expect(quick).toEqual(bySaxes(text));
    }
  });

  it('reads a document in pieces cut before a "<" as it reads it whole; a comment across a cut sends it to saxes', () => {
    const text = readFileSync(join(FIXTURES, 'jest-junit.xml'), 'utf8');
    for (const size of [1, 7, 64, 500]) expect(byQuickScan(text, size)).toEqual(byQuickScan(text));
    expect([...piecesOf(Buffer.from('<a>é<b/>ü</a>'), 1)]).toEqual(['<a>é', '<b/>ü', '</a>']);
    const comment = '<a><!-- x <y> z --></a>';
    expect(byQuickScan(comment)).not.toBeNull();
    expect(byQuickScan(comment, 5)).toBeNull();
    expect(bySaxes(comment)).not.toBeNull();
  });

  it('agrees with saxes on the well-formed XML it reads: references, line ends in attributes, comments, CDATA, a BOM', () => {
    const docs = [
      '<testsuite name="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;"><testcase name=\'x\'/></testsuite>',
      '<testsuite name="line\r\none\ttab\nnext\rend" time="1"><testcase name="&#65;&#x42;&#10;c"></testcase ></testsuite\n>',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!-- before --><testsuites><!----><testsuite><testcase name="t"><failure message="m">x &gt; y <![CDATA[ <not a tag> & ]]></failure></testcase></testsuite></testsuites>\n<!-- after -->\n',
      '\uFEFF<testsuite   name = "spaced"  ><testcase name="ünïcödé ✓"/></testsuite>',
      "<?xml version='1.0'?><testsuites><testsuite name='s'><testcase classname='c' name='n' time='0.1'><error type='E'/></testcase></testsuite></testsuites>",
      '<a><b c="1" d="2"/><e>text with > and ]] and ] ></e></a>',
    ];
    for (const doc of docs) {
      const quick = byQuickScan(doc);
      expect({ doc, read: quick !== null }).toEqual({ doc, read: true });
      expect(quick).toEqual(bySaxes(doc));
    }
  });

  it('leaves every document that is not well-formed to the full parser', () => {
    const broken = [
      '<testsuite name="a"><testcase name="x"></testsuite>',
      '<testsuite><testcase></testcase>',
      '<a></a><b></b>',
      '<a></a>text',
      'text<a></a>',
      '<a b="1" b="2"></a>',
      '<a b="1"c="2"></a>',
      '<a b=1></a>',
      '<a b="x<y"></a>',
      '<a b="&nope;"></a>',
      '<a>&amp</a>',
      '<a>& b</a>',
      '<a>&#0;</a>',
      '<a>]]></a>',
      '<a><!-- a -- b --></a>',
      '<a><!-- a ---></a>',
      '<a>\u0001</a>',
      '<![CDATA[x]]><a/>',
      '<a><1b/></a>',
      '</a>',
      '',
      '   ',
      '<a',
      '<a b="1"',
      '<?xml version="2.0"?><a/>',
      ' <?xml version="1.0"?><a/>',
    ];
    for (const doc of broken) {
      expect({ doc, saxes: bySaxes(doc) }).toEqual({ doc, saxes: null });
      expect({ doc, quick: byQuickScan(doc) }).toEqual({ doc, quick: null });
    }
  });

  it('leaves XML outside its subset to the full parser, which reads it', () => {
    const outside = ['<!DOCTYPE a><a>x</a>', '<a><?pi data?></a>', '<ä/>', '<a>\u0085</a>', '<a b="\uD83D\uDE00"/>'];
    for (const doc of outside) {
      expect({ doc, quick: byQuickScan(doc) }).toEqual({ doc, quick: null });
      expect({ doc, saxes: bySaxes(doc) !== null }).toEqual({ doc, saxes: true });
    }
  });

  it('never reads a document differently from saxes, whatever is cut out of or put into a report', () => {
    const base = readFileSync(join(FIXTURES, 'jest-junit.xml'), 'utf8').slice(0, 1500);
    const pieces = ['<', '>', '/', '&', ';', '"', "'", '=', ' ', '\r', '--', ']]>', '<!--', '-->', '<![CDATA[', '&amp;', '&#1;', '&#x41;', '<a>', '</a>', '<b/>', 'x', '\t', '?'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(base.length), fc.nat(8), fc.constantFrom(...pieces)), { minLength: 1, maxLength: 4 }), (edits) => {
        let doc = base;
        for (const [at, cut, piece] of edits) {
          const i = at % (doc.length + 1);
          doc = doc.slice(0, i) + piece + doc.slice(i + cut);
        }
        // Whenever the quick pass reads a document, whole or in pieces, saxes reads it too, with the same tags and attributes.
        for (const quick of [byQuickScan(doc), byQuickScan(doc, 40)]) if (quick !== null) expect(quick).toEqual(bySaxes(doc));
      }),
      { numRuns: 2000 },
    );
  });
});
