/**
 * Builtins that touch the evaluation itself or the outside world: trace, print, template strings,
 * rego.metadata.*, and the refusals (http.send, opa.runtime, net.lookup_ip_addr, ...): this engine has no network
 * and exposes no environment, so those raise BuiltinHaltError, which the evaluator surfaces even when
 * strict_builtin_errors is off.
 */
import { Value, RegoSet, regoString, makeObject } from '../value';
import type { BuiltinImpl, BuiltinContext } from './contract';
import { BuiltinError, BuiltinHaltError } from './errors';
import { str, arr } from './operands';
import { queryUnescape } from './encoding';

/** How print and template strings show a value: strings raw, everything else as Rego text. */
export function printText(v: Value): string {
  return typeof v === 'string' ? v : regoString(v);
}

/**
 * Cross product of print operands: each operand is a set of the values its expression produced (empty: the
 * expression was undefined, shown as "<undefined>"), or a plain value.
 */
export function printLines(operands: Value[]): string[][] {
  let rows: string[][] = [[]];
  for (const op of operands) {
    let texts: string[];
    if (op instanceof RegoSet) texts = op.size === 0 ? ['<undefined>'] : op.sorted().map(printText);
    else texts = [printText(op)];
    const next: string[][] = [];
    for (const r of rows) for (const t of texts) next.push([...r, t]);
    rows = next;
  }
  return rows;
}

/** The evaluator prefixes the builtin's name: `http.send: not supported: policies cannot reach the network`. */
function refuse(why: string): BuiltinImpl {
  return () => {
    throw new BuiltinHaltError(`not supported: ${why}`);
  };
}

/** Go's url.Parse, reduced to the fields uri.parse reports. */
export function parseURI(s: string): Record<string, string> {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(s)) throw new BuiltinError(`parse ${JSON.stringify(s)}: net/url: invalid control character in URL`);
  let rest = s;
  const out: Record<string, string> = {};
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    const frag = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
    if (frag) out.fragment = unescapePart(frag, s);
  }
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (sm) {
    out.scheme = sm[1].toLowerCase();
    rest = rest.slice(sm[0].length);
  } else if (rest.startsWith(':')) throw new BuiltinError(`parse ${JSON.stringify(s)}: missing protocol scheme`);
  const q = rest.indexOf('?');
  if (q >= 0) {
    const raw = rest.slice(q + 1);
    rest = rest.slice(0, q);
    if (raw) out.raw_query = raw;
  }
  if (rest.startsWith('//') && (sm || !rest.startsWith('///'))) {
    rest = rest.slice(2);
    const slash = rest.indexOf('/');
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    const hostport = at >= 0 ? authority.slice(at + 1) : authority;
    let host = hostport;
    let port = '';
    const v6 = /^\[([^\]]*)\](?::(.*))?$/.exec(hostport);
    if (v6) {
      host = v6[1];
      port = v6[2] ?? '';
    } else {
      const c = hostport.lastIndexOf(':');
      if (c >= 0) {
        host = hostport.slice(0, c);
        port = hostport.slice(c + 1);
      }
    }
    if (port && !/^\d+$/.test(port)) throw new BuiltinError(`parse ${JSON.stringify(s)}: invalid port ${JSON.stringify(':' + port)} after host`);
    if (host) out.hostname = unescapePart(host, s);
    if (port) out.port = port;
  }
  if (rest) {
    const path = unescapePart(rest, s);
    out.path = path;
    // Go keeps RawPath only when the original escaping differs from the default one.
    out.raw_path = pathEscape(path) === rest ? path : rest;
  }
  return out;
}

/** Go's url.PathEscape-style escaping of a path (encodePath mode). */
function pathEscape(p: string): string {
  let out = '';
  for (const b of Buffer.from(p, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c)) out += c;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function unescapePart(p: string, whole: string): string {
  try {
    return queryUnescape(p.replace(/\+/g, '%2B'));
  } catch {
    const m = /%(?![0-9a-fA-F]{2}).{0,2}/.exec(p);
    throw new BuiltinError(`parse ${JSON.stringify(whole)}: invalid URL escape ${JSON.stringify(m ? m[0] : '%')}`);
  }
}

export const MISC: Record<string, BuiltinImpl> = {
  /**
   * OPA shows trace notes only in explain/trace output, never among print output; notes are kept in the
   * evaluation cache under "trace" for tools that want to show them.
   */
  trace: (args, ctx: BuiltinContext) => {
    const note = str(args, 0);
    const notes = (ctx.cache.get('trace') as string[] | undefined) ?? [];
    notes.push(note);
    ctx.cache.set('trace', notes);
    return true;
  },
  'internal.print': (args, ctx) => {
    for (const row of printLines(arr(args, 0))) ctx.print(row.join(' '));
    return true;
  },
  print: (args, ctx) => {
    for (const row of printLines(args)) ctx.print(row.join(' '));
    return true;
  },
  // reached by a parameterized test's case (compiler/test-cases.ts); a runner passes its own implementation to
  // record the cases
  'internal.test_case': () => true,
  'internal.template_string': (args) => {
    const rows = printLines(arr(args, 0));
    if (rows.length > 1) throw new BuiltinHaltError('template-strings must not produce multiple outputs');
    return rows[0].join('');
  },
  'rego.metadata.chain': (_args, ctx) => (ctx.metadata?.chain ?? []) as Value,
  'rego.metadata.rule': (_args, ctx) => (ctx.metadata?.rule ?? {}) as Value,
  'rego.parse_module': () => {
    // undefined would be an answer OPA never gives: the evaluation stops instead (as http.send's refusal does)
    throw new BuiltinHaltError('not supported by this engine');
  },
  'uri.parse': (args) => {
    const parts = parseURI(str(args, 0));
    return makeObject(Object.entries(parts));
  },
  'uri.is_valid': ([v]) => {
    if (typeof v !== 'string' || v === '') return false;
    try {
      parseURI(v);
      return true;
    } catch {
      return false;
    }
  },
  'http.send': refuse('policies cannot reach the network'),
  'opa.runtime': refuse('policies cannot read the runtime environment'),
  'net.lookup_ip_addr': refuse('policies cannot reach the network'),
  'graphql.is_valid': refuse('GraphQL builtins are not available in this engine'),
  'graphql.parse': refuse('GraphQL builtins are not available in this engine'),
  'graphql.parse_and_verify': refuse('GraphQL builtins are not available in this engine'),
  'graphql.parse_query': refuse('GraphQL builtins are not available in this engine'),
  'graphql.parse_schema': refuse('GraphQL builtins are not available in this engine'),
  'graphql.schema_is_valid': refuse('GraphQL builtins are not available in this engine'),
};
