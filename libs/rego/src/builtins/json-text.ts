/**
 * JSON text as OPA produces and reads it: Go's encoding/json output (sorted keys, HTML-safe escapes, sets as
 * arrays, exact big integers) and a parser that keeps big integers exact.
 */
import { Value, PlainObject, RegoObject, RegoSet, objEntries, setOwn, compareStrings, toJSONText } from '../value';
import { BigDec } from '../decimal';
import { numberToString, parseNumber } from '../number';
import { BuiltinError } from './errors';

const NEEDS_GO_ESCAPE = /[<>&\u2028\u2029]/;

/** Go's json string encoding: escapes <, >, & and U+2028/2029 as \u00XX like encoding/json does by default. */
export function goJSONString(s: string, escapeHTML = true): string {
  const out = JSON.stringify(s);
  if (!NEEDS_GO_ESCAPE.test(out)) return out;
  return out.replace(/[<>&\u2028\u2029]/g, (c) =>
    c === '<' || c === '>' || c === '&'
      ? escapeHTML
        ? '\\u00' + c.charCodeAt(0).toString(16)
        : c
      : '\\u' + c.charCodeAt(0).toString(16),
  );
}

function keyText(k: Value): string {
  return typeof k === 'string' ? k : toJSONText(k);
}

/** Sort keys in Go's byte order; plain UTF-16 order is the same unless a key has surrogates. */
function sortKeys(keys: string[]): string[] {
  let astral = false;
  for (const k of keys) if (/[\ud800-\udfff]/.test(k)) astral = true;
  return astral ? keys.sort(compareStrings) : keys.sort();
}

/** Go json.MarshalIndent-style output; indent undefined means compact. */
export function marshalJSON(v: Value, indent?: string, prefix = '', escapeHTML = true): string {
  if (indent === undefined) {
    const parts: string[] = [prefix];
    compact(v, parts, escapeHTML);
    return parts.join('');
  }
  const nl = (depth: number) => '\n' + prefix + indent.repeat(depth);
  const rec = (x: Value, depth: number): string => {
    switch (typeof x) {
      case 'string':
        return goJSONString(x, escapeHTML);
      case 'number':
      case 'bigint':
        return numberToString(x);
      case 'boolean':
        return x ? 'true' : 'false';
    }
    if (x === null) return 'null';
    if (x instanceof BigDec) return x.text;
    let items: string[];
    let open: string;
    let close: string;
    if (Array.isArray(x) || x instanceof RegoSet) {
      const xs = Array.isArray(x) ? x : x.sorted();
      items = xs.map((e) => rec(e, depth + 1));
      open = '[';
      close = ']';
    } else {
      const byKey = new Map<string, Value>();
      for (const [k, e] of objEntries(x as PlainObject)) byKey.set(keyText(k), e);
      items = sortKeys(Array.from(byKey.keys())).map((k) => goJSONString(k, escapeHTML) + ': ' + rec(byKey.get(k) as Value, depth + 1));
      open = '{';
      close = '}';
    }
    if (items.length === 0) return open + close;
    return open + nl(depth + 1) + items.join(',' + nl(depth + 1)) + nl(depth) + close;
  };
  return prefix + rec(v, 0);
}

function compact(x: Value, out: string[], escapeHTML: boolean): void {
  switch (typeof x) {
    case 'string':
      out.push(goJSONString(x, escapeHTML));
      return;
    case 'number':
    case 'bigint':
      out.push(numberToString(x));
      return;
    case 'boolean':
      out.push(x ? 'true' : 'false');
      return;
  }
  if (x === null) {
    out.push('null');
    return;
  }
  if (x instanceof BigDec) {
    out.push(x.text);
    return;
  }
  if (Array.isArray(x) || x instanceof RegoSet) {
    const xs = Array.isArray(x) ? x : x.sorted();
    out.push('[');
    for (let i = 0; i < xs.length; i++) {
      if (i) out.push(',');
      compact(xs[i], out, escapeHTML);
    }
    out.push(']');
    return;
  }
  if (x instanceof RegoObject) {
    const byKey = new Map<string, Value>();
    for (const [k, e] of x.entries()) byKey.set(keyText(k), e);
    out.push('{');
    sortKeys(Array.from(byKey.keys())).forEach((k, i) => {
      if (i) out.push(',');
      out.push(goJSONString(k, escapeHTML), ':');
      compact(byKey.get(k) as Value, out, escapeHTML);
    });
    out.push('}');
    return;
  }
  const o = x as PlainObject;
  const keys = sortKeys(Object.keys(o));
  out.push('{');
  for (let i = 0; i < keys.length; i++) {
    if (i) out.push(',');
    out.push(goJSONString(keys[i], escapeHTML), ':');
    compact(o[keys[i]], out, escapeHTML);
  }
  out.push('}');
}

/** JSON.parse, but integers beyond 2^53 stay exact (bigint) as OPA keeps them. */
export function parseJSON(text: string): Value {
  let v: Value;
  try {
    v = JSON.parse(text) as Value;
  } catch (e) {
    throw new BuiltinError((e as Error).message);
  }
  // Only a long digit run can be a big integer; re-parse exactly only when one really is a number.
  if (/\d{16,}/.test(text) && hasUnsafeInteger(v)) return new JSONParser(text).parseTop();
  return v;
}

function hasUnsafeInteger(v: Value): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'object' || v === null || v instanceof BigDec) return v instanceof BigDec;
  if (Array.isArray(v)) return v.some(hasUnsafeInteger);
  for (const k in v as PlainObject) if (hasUnsafeInteger((v as PlainObject)[k])) return true;
  return false;
}

class JSONParser {
  i = 0;
  constructor(private s: string) {}
  fail(msg: string): never {
    throw new BuiltinError(`${msg} at position ${this.i}`);
  }
  ws() {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i])) this.i++;
  }
  parseTop(): Value {
    this.ws();
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('unexpected data after top-level value');
    return v;
  }
  value(): Value {
    this.ws();
    const c = this.s[this.i];
    if (c === '{') {
      this.i++;
      const o: PlainObject = {};
      this.ws();
      if (this.s[this.i] === '}') {
        this.i++;
        return o;
      }
      for (;;) {
        this.ws();
        if (this.s[this.i] !== '"') this.fail('expected string key');
        const k = this.string();
        this.ws();
        if (this.s[this.i++] !== ':') this.fail("expected ':'");
        setOwn(o, k, this.value());
        this.ws();
        const d = this.s[this.i++];
        if (d === '}') return o;
        if (d !== ',') this.fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      this.i++;
      const a: Value[] = [];
      this.ws();
      if (this.s[this.i] === ']') {
        this.i++;
        return a;
      }
      for (;;) {
        a.push(this.value());
        this.ws();
        const d = this.s[this.i++];
        if (d === ']') return a;
        if (d !== ',') this.fail("expected ',' or ']'");
      }
    }
    if (c === '"') return this.string();
    if (this.s.startsWith('true', this.i)) {
      this.i += 4;
      return true;
    }
    if (this.s.startsWith('false', this.i)) {
      this.i += 5;
      return false;
    }
    if (this.s.startsWith('null', this.i)) {
      this.i += 4;
      return null;
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) this.fail('invalid character');
    this.i += m[0].length;
    return parseNumber(m[0]) as Value;
  }
  string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        try {
          return JSON.parse(this.s.slice(start, this.i)) as string;
        } catch {
          this.fail('invalid string');
        }
      } else this.i++;
    }
    this.fail('unterminated string');
  }
}
