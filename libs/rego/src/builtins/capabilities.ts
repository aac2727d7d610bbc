/**
 * OPA capabilities (the JSON `opa capabilities` prints and `--capabilities <file>` reads): the complete list of
 * builtins a policy may call. Applied to a compile, it
 * - removes every builtin the file does not list (a call is then `rego_type_error: undefined function`, as in OPA);
 * - keeps the engine's own declaration and implementation for the builtins it knows;
 * - declares the others (a tool's custom builtins) from the file's `decl`: callable with their types checked like
 *   any builtin's, replaceable with `with`, implemented per evaluation by `builtinImpls` (without one, a call is an
 *   `eval_builtin_error`).
 */
import { RegoError } from '../errors';
import type { BuiltinDecl, TypeSig } from './contract';

/** One builtin as a capabilities file declares it. */
export interface CapabilityBuiltin {
  name: string;
  decl?: { type?: string; args?: TypeSig[]; result?: TypeSig; variadic?: TypeSig };
  infix?: string;
  relation?: boolean;
  nondeterministic?: boolean;
  deprecated?: boolean;
}

export interface Capabilities {
  builtins: CapabilityBuiltin[];
  future_keywords?: string[];
  features?: string[];
}

const TYPE_NAMES = new Set(['any', 'null', 'boolean', 'number', 'string', 'array', 'object', 'set', 'function']);

/** Checks the shape of a capabilities document (parsed JSON) and returns it typed; throws RegoError otherwise. */
export function parseCapabilities(doc: unknown, source = 'capabilities'): Capabilities {
  const fail = (msg: string): never => {
    throw new RegoError('rego_compile_error', `${source}: ${msg}`);
  };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail('capabilities must be a JSON object');
  const builtins = (doc as { builtins?: unknown }).builtins;
  if (!Array.isArray(builtins)) fail('capabilities must have a "builtins" array');
  const seen = new Set<string>();
  for (const b of builtins as unknown[]) {
    const name = (b as { name?: unknown })?.name;
    if (typeof name !== 'string' || name === '') fail('every builtin needs a "name"');
    if (seen.has(name as string)) fail(`builtin ${name as string} is declared twice`);
    seen.add(name as string);
    const decl = (b as { decl?: unknown }).decl;
    if (decl !== undefined) checkType(decl, `${name as string}: decl`, fail, true);
  }
  return doc as Capabilities;
}

function checkType(t: unknown, where: string, fail: (m: string) => never, fn = false): void {
  if (typeof t !== 'object' || t === null || Array.isArray(t)) fail(`${where} must be a type object`);
  const ty = (t as { type?: unknown }).type;
  if (typeof ty !== 'string' || !TYPE_NAMES.has(ty)) fail(`${where} has an unknown type ${JSON.stringify(ty)}`);
  if (fn && ty !== 'function') fail(`${where} must be a function type`);
  const o = t as { args?: unknown; of?: unknown };
  if (ty === 'function' && o.args !== undefined && !Array.isArray(o.args)) fail(`${where}: args must be an array`);
}

/**
 * The builtins of a compile under `caps`: the engine's builtins the file lists, plus the file's other builtins
 * declared from their `decl`. `engine` is the engine's full table.
 */
export function builtinsFor(caps: Capabilities, engine: Map<string, BuiltinDecl>): Map<string, BuiltinDecl> {
  const out = new Map<string, BuiltinDecl>();
  for (const b of caps.builtins) {
    const own = engine.get(b.name);
    if (own) {
      out.set(b.name, own);
      continue;
    }
    const d = b.decl ?? {};
    const decl: BuiltinDecl = { name: b.name, args: d.args ?? [] };
    if (d.result) decl.result = d.result;
    if (d.variadic) decl.variadic = d.variadic;
    if (b.relation) decl.relation = true;
    if (b.infix) decl.infix = b.infix;
    // a tool's builtin may reach out (registries, clocks): never merge its calls
    decl.nondeterministic = b.nondeterministic !== false;
    if (b.deprecated) decl.deprecated = true;
    out.set(b.name, decl);
  }
  return out;
}

/** Stable text of the builtin list, for bundle digests (two capability sets that differ give two digests). */
export function capabilitiesKey(caps: Capabilities): string {
  return caps.builtins
    .map((b) => `${b.name}:${JSON.stringify(b.decl ?? null)}`)
    .sort()
    .join('\u0000');
}
