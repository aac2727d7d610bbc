/** Rego tokenizer. Newlines are not tokens: each token records whether a newline/whitespace preceded it. */
import { RegoError } from '../errors';

export type TokKind = 'ident' | 'string' | 'rawstring' | 'number' | 'op' | 'template' | 'eof';

/** An expression inside a template string, with the position of its first character. */
export interface TemplatePart {
  src: string;
  row: number;
  col: number;
}

export interface Token {
  kind: TokKind;
  text: string; // identifier / operator text / decoded string / number text
  row: number;
  col: number;
  nl: boolean; // a newline occurred since the previous token
  ws: boolean; // whitespace (or newline) occurred since the previous token
  pos: number;
  end: number;
  /** template strings: literal text and embedded expressions, in order */
  parts?: Array<string | TemplatePart>;
}

export interface Comment {
  text: string; // without the leading '#'
  row: number;
  col: number;
}

const OPS3 = new Set<string>();
const OPS2 = new Set([':=', '==', '!=', '<=', '>=']);
const OPS1 = new Set(['{', '}', '[', ']', '(', ')', '.', ',', ';', ':', '=', '<', '>', '+', '-', '*', '/', '%', '&', '|']);

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function tokenize(src: string, file: string): { tokens: Token[]; comments: Comment[] } {
  const tokens: Token[] = [];
  const comments: Comment[] = [];
  let i = 0;
  let row = 1;
  let lineStart = 0;
  let nl = false;
  let ws = false;
  const n = src.length;
  // one closure for the whole scan (not one per token)
  const emit = (kind: TokKind, text: string, startRow: number, col: number, pos: number): void => {
    tokens.push({ kind, text, row: startRow, col, nl, ws, pos, end: i });
    nl = false;
    ws = false;
  };
  const err = (msg: string, r = row, c = i - lineStart + 1): never => {
    throw new RegoError('rego_parse_error', msg, { file, row: r, col: c });
  };
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 10) {
      i++;
      row++;
      lineStart = i;
      nl = true;
      ws = true;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      i++;
      ws = true;
      continue;
    }
    if (c === 35) {
      // comment
      const start = i;
      while (i < n && src.charCodeAt(i) !== 10) i++;
      comments.push({ text: src.slice(start + 1, i).replace(/\r$/, ''), row, col: start - lineStart + 1 });
      ws = true;
      continue;
    }
    const col = i - lineStart + 1;
    const startRow = row;
    const pos = i;
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(src.charCodeAt(j))) j++;
      const text = src.slice(i, j);
      i = j;
      emit('ident', text, startRow, col, pos);
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(i + 1)) && !(tokens.length && !ws && isValueEnd(tokens[tokens.length - 1])))) {
      // JSON-ish number: digits [. digits] [e[+-]digits]
      let j = i;
      while (j < n && isDigit(src.charCodeAt(j))) j++;
      if (src.charCodeAt(j) === 46 && isDigit(src.charCodeAt(j + 1))) {
        j++;
        while (j < n && isDigit(src.charCodeAt(j))) j++;
      }
      const e = src.charCodeAt(j);
      if (e === 101 || e === 69) {
        let k = j + 1;
        const s = src.charCodeAt(k);
        if (s === 43 || s === 45) k++;
        if (isDigit(src.charCodeAt(k))) {
          while (k < n && isDigit(src.charCodeAt(k))) k++;
          j = k;
        }
      }
      const text = src.slice(i, j);
      if (text.length > 1 && text[0] === '0' && isDigit(text.charCodeAt(1))) err('illegal number format');
      i = j;
      if (i < n && isIdentStart(src.charCodeAt(i))) err('illegal number format');
      emit('number', text, startRow, col, pos);
      continue;
    }
    if (c === 36 && (src.charCodeAt(i + 1) === 34 || src.charCodeAt(i + 1) === 96)) {
      // $"template {expr}" / $`raw template {expr}`
      const raw = src.charCodeAt(i + 1) === 96;
      const close = raw ? 96 : 34;
      const parts: Array<string | TemplatePart> = [];
      let text = '';
      let j = i + 2;
      for (;;) {
        if (j >= n) err('non-terminated template string');
        const d = src.charCodeAt(j);
        if (d === close) break;
        if (d === 10) {
          if (!raw) err('non-terminated template string');
          row++;
          lineStart = j + 1;
          text += '\n';
          j++;
          continue;
        }
        if (d === 92) {
          const e = src[j + 1];
          if (e === '{' || e === '}') {
            text += e;
            j += 2;
            continue;
          }
          if (raw) {
            text += '\\';
            j++;
            continue;
          }
          const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          if (e === 'u') {
            const hex = src.slice(j + 2, j + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) err('illegal escape sequence');
            text += String.fromCharCode(parseInt(hex, 16));
            j += 6;
            continue;
          }
          if (map[e] === undefined) err('illegal escape sequence');
          text += map[e];
          j += 2;
          continue;
        }
        if (d === 123) {
          // find the matching '}' (nested braces and string literals inside the expression are skipped)
          let depth = 1;
          let k = j + 1;
          const eRow = row;
          const eCol = k - lineStart + 1;
          while (k < n && depth > 0) {
            const x = src.charCodeAt(k);
            if (x === 123) depth++;
            else if (x === 125) depth--;
            else if (x === 34) {
              k++;
              while (k < n && src.charCodeAt(k) !== 34) k += src.charCodeAt(k) === 92 ? 2 : 1;
            } else if (x === 96) {
              k++;
              while (k < n && src.charCodeAt(k) !== 96) k++;
            } else if (x === 10) {
              row++;
              lineStart = k + 1;
            }
            if (depth > 0) k++;
          }
          if (depth > 0) err('non-terminated template expression');
          parts.push(text);
          text = '';
          parts.push({ src: src.slice(j + 1, k), row: eRow, col: eCol });
          j = k + 1;
          continue;
        }
        text += src[j];
        j++;
      }
      parts.push(text);
      i = j + 1;
      tokens.push({ kind: 'template', text: '', row: startRow, col, nl, ws, pos, end: i, parts });
      nl = false;
      ws = false;
      continue;
    }
    if (c === 34) {
      // "string": the common case has no escapes and is sliced in one go
      let q = i + 1;
      let d = src.charCodeAt(q);
      while (q < n && d !== 34 && d !== 92 && d !== 10) d = src.charCodeAt(++q);
      if (q < n && d === 34) {
        const text = src.slice(i + 1, q);
        i = q + 1;
        emit('string', text, startRow, col, pos);
        continue;
      }
      let j = i + 1;
      let out = '';
      for (;;) {
        if (j >= n || src.charCodeAt(j) === 10) err('non-terminated string');
        const d = src.charCodeAt(j);
        if (d === 34) break;
        if (d === 92) {
          const e = src[j + 1];
          j += 2;
          switch (e) {
            case '"':
              out += '"';
              break;
            case '\\':
              out += '\\';
              break;
            case '/':
              out += '/';
              break;
            case 'b':
              out += '\b';
              break;
            case 'f':
              out += '\f';
              break;
            case 'n':
              out += '\n';
              break;
            case 'r':
              out += '\r';
              break;
            case 't':
              out += '\t';
              break;
            case 'u': {
              const hex = src.slice(j, j + 4);
              if (!/^[0-9a-fA-F]{4}$/.test(hex)) err('illegal escape sequence');
              out += String.fromCharCode(parseInt(hex, 16));
              j += 4;
              break;
            }
            default:
              err('illegal escape sequence');
          }
          continue;
        }
        out += src[j];
        j++;
      }
      i = j + 1;
      emit('string', out, startRow, col, pos);
      continue;
    }
    if (c === 96) {
      // `raw string`
      const j = src.indexOf('`', i + 1);
      if (j < 0) err('non-terminated raw string');
      const text = src.slice(i + 1, j);
      for (let k = i + 1; k < j; k++) {
        if (src.charCodeAt(k) === 10) {
          row++;
          lineStart = k + 1;
        }
      }
      i = j + 1;
      emit('rawstring', text, startRow, col, pos);
      continue;
    }
    const two = src.slice(i, i + 2);
    if (OPS2.has(two)) {
      i += 2;
      emit('op', two, startRow, col, pos);
      continue;
    }
    const one = src[i];
    if (OPS1.has(one) || OPS3.has(one)) {
      i += 1;
      emit('op', one, startRow, col, pos);
      continue;
    }
    err(`illegal token: ${JSON.stringify(one)}`);
  }
  tokens.push({ kind: 'eof', text: '', row, col: i - lineStart + 1, nl: true, ws: true, pos: i, end: i });
  return { tokens, comments };
}

function isValueEnd(t: Token): boolean {
  return t.kind === 'ident' || t.kind === 'number' || t.kind === 'string' || (t.kind === 'op' && (t.text === ']' || t.text === ')' || t.text === '}'));
}
