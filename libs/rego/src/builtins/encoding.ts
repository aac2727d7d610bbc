/** Encodings: base64, base64url, hex, urlquery, json, yaml. Decoded bytes become Go-style strings. */
import YAML from 'yaml';
import { Value, RegoSet, objEntries, compareStrings, makeObject } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinTypeError } from './errors';
import { str, obj } from './operands';
import { decodeUtf8Go } from './utf8';
import { marshalJSON, parseJSON } from './json-text';

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64URL = /^(?:[A-Za-z0-9\-_]{4})*(?:[A-Za-z0-9\-_]{2}==|[A-Za-z0-9\-_]{3}=)?$/;

/** Go's StdEncoding.DecodeString is strict about the alphabet and padding (CR/LF are ignored). */
function b64Bytes(s: string, url: boolean): Buffer {
  const t = s.replace(/[\r\n]/g, '');
  if (!(url ? B64URL : B64).test(t)) {
    throw new BuiltinError(`illegal base64 data at input byte ${firstBadB64(t, url)}`);
  }
  return Buffer.from(t, url ? 'base64url' : 'base64');
}

function firstBadB64(t: string, url: boolean): number {
  const alpha = url ? /[A-Za-z0-9\-_]/ : /[A-Za-z0-9+/]/;
  for (let i = 0; i < t.length; i++) if (!alpha.test(t[i])) return t[i] === '=' ? i : i;
  return t.length - (t.length % 4);
}

export function base64urlDecodeLoose(s: string): Buffer {
  let t = s;
  if (!t.endsWith('=')) {
    switch (t.length % 4) {
      case 0:
        break;
      case 2:
        t += '==';
        break;
      case 3:
        t += '=';
        break;
      default:
        throw new BuiltinError(`illegal base64url string: ${s}`);
    }
  }
  return b64Bytes(t, true);
}

/** Go's url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Go's url.QueryUnescape. */
export function queryUnescape(s: string): string {
  const bytes: number[] = [];
  const raw = Buffer.from(s, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === 0x25 /* % */) {
      const h = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9a-fA-F]{2}$/.test(h)) {
        const bad = raw.subarray(i, Math.min(i + 3, raw.length)).toString('utf8');
        throw new BuiltinError(`invalid URL escape ${JSON.stringify(bad)}`);
      }
      bytes.push(parseInt(h, 16));
      i += 2;
    } else if (b === 0x2b /* + */) bytes.push(0x20);
    else bytes.push(b);
  }
  return decodeUtf8Go(Uint8Array.from(bytes));
}

function encodeObject(o: Value): string {
  const pairs: string[] = [];
  const entries = objEntries(o as never) as [Value, Value][];
  entries.sort((a, b) => compareStrings(String(a[0]), String(b[0])));
  for (const [k, v] of entries) {
    if (typeof k !== 'string') throw new BuiltinTypeError('operand 1 must be object with string keys');
    const vals: Value[] = typeof v === 'string' ? [v] : Array.isArray(v) ? v : v instanceof RegoSet ? v.sorted() : [];
    if (typeof v !== 'string' && !Array.isArray(v) && !(v instanceof RegoSet)) {
      throw new BuiltinTypeError(`operand 1 values must be one of {string, array, set} but got ${typeof v}`);
    }
    for (const x of vals) {
      if (typeof x !== 'string') throw new BuiltinTypeError('operand 1 values must be strings or collections of strings');
      pairs.push(queryEscape(k) + '=' + queryEscape(x));
    }
  }
  return pairs.join('&');
}

function decodeObject(s: string): Value {
  const out = new Map<string, Value[]>();
  for (const part of s.split('&')) {
    if (part === '') continue;
    if (part.includes(';')) throw new BuiltinError('invalid semicolon separator in query');
    const eq = part.indexOf('=');
    const k = queryUnescape(eq < 0 ? part : part.slice(0, eq));
    const v = queryUnescape(eq < 0 ? '' : part.slice(eq + 1));
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return makeObject(out.entries());
}

function hexDecode(s: string): string {
  if (!/^[0-9a-fA-F]*$/.test(s)) {
    const bad = Array.from(s).find((c) => !/[0-9a-fA-F]/.test(c))!;
    const cp = bad.codePointAt(0)!;
    throw new BuiltinError(`encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(bad).replace(/^"|"$/g, "'")}`);
  }
  if (s.length % 2 === 1) throw new BuiltinError('encoding/hex: odd length hex string');
  return decodeUtf8Go(Buffer.from(s, 'hex'));
}

/**
 * OPA reads YAML with go-yaml v2, i.e. YAML 1.1 (yes/no/on/off are booleans, 010 is octal); timestamps stay
 * strings as they do when decoding into interface{}.
 */
const YAML_PARSE_OPTIONS = {
  version: '1.1' as const,
  uniqueKeys: false,
  intAsBigInt: true,
  customTags: (tags: YAML.Tags) => tags.filter((t) => (t as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
};

/** YAML -> JSON-compatible value, as ghodss/yaml does (keys become strings). */
export function yamlToValue(text: string): Value {
  const docs = YAML.parseAllDocuments(text, YAML_PARSE_OPTIONS);
  const list = Array.isArray(docs) ? docs : [docs];
  if (list.length === 0) return null;
  const doc = list[0];
  if (doc.errors.length) throw new BuiltinError(doc.errors[0].message);
  const js = doc.toJS({ maxAliasCount: 100 }) as unknown;
  return jsonify(js);
}

function jsonify(x: unknown): Value {
  if (x === undefined || x === null) return null;
  if (typeof x === 'number') {
    if (!Number.isFinite(x)) throw new BuiltinError('yaml: non-finite number');
    return x;
  }
  if (typeof x === 'bigint') return N.normalize(x);
  if (typeof x === 'string' || typeof x === 'boolean') return x;
  if (x instanceof Date) return x.toISOString();
  if (Array.isArray(x)) return x.map(jsonify);
  if (x instanceof Set) return Array.from(x, jsonify);
  if (x instanceof Map) {
    const entries: [Value, Value][] = [];
    for (const [k, v] of x) entries.push([typeof k === 'string' ? k : String(k), jsonify(v)]);
    return makeObject(entries);
  }
  if (typeof x === 'object') {
    return makeObject(Object.entries(x as object).map(([k, v]) => [k, jsonify(v)] as [Value, Value]));
  }
  return String(x) as Value;
}

/** JSON value -> YAML text with sorted keys, in go-yaml's layout (sequences not indented under keys). */
export function valueToYAML(v: Value): string {
  const js = JSON.parse(marshalJSON(v, undefined, '', false));
  return YAML.stringify(js, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}

function marshalWithOptions(v: Value, optsV: Value): string {
  const opts = obj([optsV], 0);
  let pretty: boolean | undefined;
  let indent: string | undefined;
  let prefix: string | undefined;
  for (const [k, x] of objEntries(opts)) {
    switch (k) {
      case 'pretty':
        if (typeof x !== 'boolean') throw new BuiltinTypeError(`operand 2 "pretty" must be boolean but got ${typeof x}`);
        pretty = x;
        break;
      case 'indent':
        if (typeof x !== 'string') throw new BuiltinTypeError(`operand 2 "indent" must be string but got ${typeof x}`);
        indent = x;
        break;
      case 'prefix':
        if (typeof x !== 'string') throw new BuiltinTypeError(`operand 2 "prefix" must be string but got ${typeof x}`);
        prefix = x;
        break;
      default:
        throw new BuiltinTypeError(`object contained unknown key ${JSON.stringify(k)}`);
    }
  }
  const wantPretty = pretty === undefined ? indent !== undefined || prefix !== undefined : pretty;
  if (!wantPretty) return marshalJSON(v);
  return marshalJSON(v, indent ?? '\t', prefix ?? '');
}

export const ENCODING: Record<string, BuiltinImpl> = {
  'base64.encode': (args) => Buffer.from(str(args, 0), 'utf8').toString('base64'),
  'base64.decode': (args) => decodeUtf8Go(b64Bytes(str(args, 0), false)),
  'base64.is_valid': (args) => {
    const s = args[0];
    return typeof s === 'string' && B64.test(s.replace(/[\r\n]/g, ''));
  },
  'base64url.encode': (args) => {
    const b = Buffer.from(str(args, 0), 'utf8').toString('base64url');
    return b + '='.repeat((4 - (b.length % 4)) % 4);
  },
  'base64url.encode_no_pad': (args) => Buffer.from(str(args, 0), 'utf8').toString('base64url'),
  'base64url.decode': (args) => decodeUtf8Go(base64urlDecodeLoose(str(args, 0))),
  'hex.encode': (args) => Buffer.from(str(args, 0), 'utf8').toString('hex'),
  'hex.decode': (args) => hexDecode(str(args, 0)),
  'urlquery.encode': (args) => queryEscape(str(args, 0)),
  'urlquery.decode': (args) => queryUnescape(str(args, 0)),
  'urlquery.encode_object': (args) => encodeObject(obj(args, 0)),
  'urlquery.decode_object': (args) => decodeObject(str(args, 0)),
  'json.marshal': (args) => marshalJSON(args[0]),
  'json.marshal_with_options': (args) => marshalWithOptions(args[0], args[1]),
  'json.unmarshal': (args) => parseJSON(str(args, 0)),
  'json.is_valid': (args) => {
    const s = args[0];
    if (typeof s !== 'string') return false;
    try {
      JSON.parse(s);
      return true;
    } catch {
      return false;
    }
  },
  'yaml.marshal': (args) => valueToYAML(args[0]),
  'yaml.unmarshal': (args) => yamlToValue(str(args, 0)),
  'yaml.is_valid': (args) => {
    const s = args[0];
    if (typeof s !== 'string') return false;
    try {
      yamlToValue(s);
      return true;
    } catch {
      return false;
    }
  },
};
