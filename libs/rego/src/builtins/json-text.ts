/**
 * JSON text as OPA produces and reads it: Go's encoding/json output (sorted keys, HTML-safe escapes, sets as
 * arrays, exact big integers) and a parser that keeps big integers exact.
 */
import { Value, PlainObject, RegoSet, objEntries, setOwn, compareStrings, toJSONText, sortedValues } from '../value';
import { numberToString, parseNumber } from '../number';
import { BuiltinError } from './errors';

/** Go's json string encoding: escapes <, >, & and U+2028/2029 as \u00XX like encoding/json does by default. */
export function goJSONString(s: string, escapeHTML = true): string {
  let out = JSON.stringify(s);
  if (escapeHTML) out = out.replace(/[<>&]/g, (c) => '\\u00' + c.charCodeAt(0).toString(16));
  return out.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function keyText(k: Value): string {
  return typeof k === 'string' ? k : toJSONText(k);
}

/** Go json.MarshalIndent-style output; indent undefined means compact. */
export function marshalJSON(v: Value, indent?: string, prefix = '', escapeHTML = true): string {
  const nl = (depth: number) => (indent === undefined ? '' : '\n' + prefix + indent.repeat(depth));
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
    let items: string[];
    let open: string;
    let close: string;
    if (Array.isArray(x) || x instanceof RegoSet) {
      const xs = Array.isArray(x) ? x : sortedValues(x);
      items = xs.map((e) => rec(e, depth + 1));
      open = '[';
      close = ']';
    } else {
      const entries = objEntries(x as PlainObject).map(([k, e]) => [keyText(k), e] as [string, Value]);
      entries.sort((a, b) => compareStrings(a[0], b[0]));
      const sep = indent === undefined ? ':' : ': ';
      items = entries.map(([k, e]) => goJSONString(k, escapeHTML) + sep + rec(e, depth + 1));
      open = '{';
      close = '}';
    }
    if (items.length === 0) return open + close;
    return open + nl(depth + 1) + items.join(',' + nl(depth + 1)) + nl(depth) + close;
  };
  return prefix + rec(v, 0);
}

/** JSON.parse, but integers beyond 2^53 stay exact (bigint) as OPA keeps them. */
export function parseJSON(text: string): Value {
  if (!/\d{16,}/.test(text)) {
    try {
      return JSON.parse(text) as Value;
    } catch (e) {
      throw new BuiltinError((e as Error).message);
    }
  }
  return new JSONParser(text).parseTop();
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
