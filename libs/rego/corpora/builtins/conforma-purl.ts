/**
 * `ec.purl.is_valid` and `ec.purl.parse` as the Conforma CLI implements them (conforma/cli internal/rego/purl, on
 * package-url/packageurl-go v0.1.3's FromString): for running ec-policies' tests, which call them without a `with`
 * replacement. Pure parsing, no network. Loaded by the corpora runner through `rego test --builtins`.
 */
import type { BuiltinDecl } from '../../src/builtins/contract';
import type { Value } from '../../src/value';

class PurlError extends Error {}

interface Purl {
  type: string;
  namespace: string;
  name: string;
  version: string;
  qualifiers: Array<{ key: string; value: string }>;
  subpath: string;
}

const QUALIFIER_KEY = /^[A-Za-z.\-_][0-9A-Za-z.\-_]*$/;
const TYPE = /^[A-Za-z.\-+][0-9A-Za-z.\-+]*$/;
const HEX = /^[0-9A-Fa-f]{2}$/;

/** Go's url unescape: `%XX` decoded (bytes, then UTF-8), a malformed escape is an error; `plus`: `+` is a space. */
function unescape(s: string, plus: boolean): string {
  if (!s.includes('%') && !(plus && s.includes('+'))) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      const h = s.slice(i + 1, i + 3);
      if (!HEX.test(h)) throw new PurlError(`invalid URL escape "%${h}"`);
      bytes.push(parseInt(h, 16));
      i += 2;
    } else if (c === '+' && plus) bytes.push(0x20);
    else bytes.push(...enc.encode(c));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Go's path.Join of two parts, cleaned (no empty, `.` or resolvable `..` segments). */
function pathJoin(a: string, b: string): string {
  const parts = [a, b].filter((x) => x !== '').join('/');
  if (parts === '') return '';
  const rooted = parts.startsWith('/');
  const out: string[] = [];
  for (const seg of parts.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  return (rooted ? '/' : '') + out.join('/');
}

function lastCut(s: string, sep: string): [string, string] | undefined {
  const i = s.lastIndexOf(sep);
  return i < 0 ? undefined : [s.slice(0, i), s.slice(i + 1)];
}

const LOWER_NAMESPACE = new Set(['alpm', 'apk', 'bitbucket', 'composer', 'deb', 'github', 'golang', 'npm', 'rpm', 'qpkg']);
const LOWER_NAME = new Set(['alpm', 'apk', 'bitbucket', 'bitnami', 'composer', 'deb', 'github', 'golang', 'npm']);

export function parsePurl(purl: string): Purl {
  // net/url.Parse
  if (/[\x00-\x1f\x7f]/.test(purl)) throw new PurlError('failed to parse as URL: invalid control character in URL');
  const sm = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(purl);
  if (purl.startsWith(':')) throw new PurlError('failed to parse as URL: missing protocol scheme');
  const scheme = sm ? sm[1].toLowerCase() : '';
  if (scheme !== 'pkg') throw new PurlError(`purl scheme is not "pkg": "${scheme}"`);
  let rest = purl.slice(sm![0].length);
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = unescape(rest.slice(hash + 1), false);
    rest = rest.slice(0, hash);
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let p: string;
  if (!rest.startsWith('/')) p = rest; // opaque: `pkg:type/...`
  else if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const path = slash < 0 ? '' : unescape(rest.slice(slash), false);
    p = pathJoin(host, path).replace(/^\//, '');
  } else p = pathJoin('', unescape(rest, false)).replace(/^\//, '');

  const cut = p.indexOf('/');
  if (cut < 0) throw new PurlError('purl is missing type or name');
  const type = p.slice(0, cut).toLowerCase();
  p = p.slice(cut + 1);

  // qualifiers, in order
  const quals: Array<{ key: string; value: string }> = [];
  for (const part of rawQuery.split('&')) {
    if (part.includes(';')) throw new PurlError('invalid qualifiers: invalid semicolon separator in query');
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key = eq < 0 ? part : part.slice(0, eq);
    let value = eq < 0 ? '' : part.slice(eq + 1);
    try {
      key = unescape(key, true);
    } catch {
      throw new PurlError(`invalid qualifiers: error unescaping qualifier key "${key}"`);
    }
    if (!QUALIFIER_KEY.test(key)) throw new PurlError(`invalid qualifiers: invalid qualifier key: '${key}'`);
    try {
      value = unescape(value, true);
    } catch {
      throw new PurlError(`invalid qualifiers: error unescaping qualifier value "${value}"`);
    }
    quals.push({ key: key.toLowerCase(), value });
  }

  // namespace / name @ version
  let namespace = '';
  let name = p;
  const ns = lastCut(name, '/');
  if (ns) {
    namespace = unescape(ns[0], false);
    name = ns[1];
  }
  let version = '';
  const at = lastCut(name, '@');
  if (at) {
    name = at[0];
    version = unescape(at[1], false);
  }
  name = unescape(name, false);
  if (name === '') throw new PurlError('purl is missing name');

  // Normalize
  if (!TYPE.test(type)) throw new PurlError(`invalid type "${type}"`);
  namespace = namespace.replace(/^\/+|\/+$/g, '');
  const normed = quals.filter((x) => x.value !== '').map((x) => ({ key: x.key.toLowerCase(), value: x.value }));
  normed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < normed.length; i++) {
    if (normed[i - 1].key === normed[i].key) throw new PurlError(`invalid qualifiers: duplicate qualifier key: "${normed[i].key}"`);
  }
  const segs = fragment.split('/');
  segs.forEach((s, i) => {
    if ((s === '.' || s === '..') && i !== 0) throw new PurlError(`invalid Package URL subpath: "${fragment}"`);
  });
  const subpath = fragment.replace(/^\/+|\/+$/g, '');
  if (LOWER_NAMESPACE.has(type)) namespace = namespace.toLowerCase();
  if (LOWER_NAME.has(type)) name = name.toLowerCase();
  else if (type === 'pypi') name = name.replace(/_/g, '-').toLowerCase();
  else if (type === 'mlflow') {
    const repo = normed.find((x) => x.key === 'repository_url')?.value;
    if (repo !== undefined && !repo.includes('azureml') && repo.includes('databricks')) name = name.toLowerCase();
  }
  if (type === 'huggingface') version = version.toLowerCase();
  const map = new Map(normed.map((x) => [x.key, x.value]));
  if (type === 'conan') {
    if (namespace !== '') {
      if (!map.has('channel')) throw new PurlError('channel qualifier does not exist');
      if (map.get('channel') === '') throw new PurlError('the qualifier channel must be not empty if namespace is present');
    } else if (map.has('channel') && map.get('channel') !== '') throw new PurlError('namespace is required if channel is non empty');
  } else if (type === 'swift') {
    if (namespace === '') throw new PurlError('namespace is required');
    if (version === '') throw new PurlError('version is required');
  } else if (type === 'cran' && version === '') throw new PurlError('version is required');
  return { type, namespace, name, version, qualifiers: normed, subpath };
}

export const builtins: BuiltinDecl[] = [
  {
    name: 'ec.purl.is_valid',
    args: [{ type: 'string' }],
    result: { type: 'string' },
    impl: ([s]) => {
      if (typeof s !== 'string') return false;
      try {
        parsePurl(s);
        return true;
      } catch (e) {
        if (e instanceof PurlError) return false;
        throw e;
      }
    },
  },
  {
    name: 'ec.purl.parse',
    args: [{ type: 'string' }],
    result: { type: 'object' },
    impl: ([s]) => {
      if (typeof s !== 'string') return undefined;
      try {
        return parsePurl(s) as unknown as Value;
      } catch (e) {
        if (e instanceof PurlError) return undefined;
        throw e;
      }
    },
  },
];
