/**
 * OPA bundles given as a map of files (path inside the bundle -> text), read as OPA reads a bundle:
 * - every `.rego` file is a module;
 * - `data.json` / `data.yaml` / `data.yml` is mounted under `data` at its folder's path (`teams/alpha/data.json`
 *   gives `data.teams.alpha`); other JSON/YAML files are not data;
 * - an optional `.manifest` (JSON) gives `rego_version` (0 or 1, the syntax of the bundle's modules),
 *   `file_rego_versions` (path or glob -> version, overriding it per file; `/a/b.rego` and `a/b.rego` are the same
 *   path) and `roots` (the only data paths and packages the bundle may write; `""` is all of them).
 * A module's version is, in order: a matching `file_rego_versions` entry, the manifest's `rego_version`, the
 * caller's `regoVersion` (e.g. the CLI's `--v0-compatible`), 1.
 */
import * as YAML from 'yaml';
import { RegoError } from './errors';
import { parseModule } from './parser/parser';
import { isPlainObject } from './value';

export interface BundleManifest {
  revision?: string;
  roots?: string[];
  rego_version?: number;
  file_rego_versions?: Record<string, number>;
  metadata?: Record<string, unknown>;
}

export interface ReadBundle {
  /** the modules, by their path in the bundle */
  modules: Record<string, string>;
  /** the Rego version of each module */
  regoVersions: Record<string, 0 | 1>;
  /** the data documents mounted at their folders' paths */
  data: Record<string, unknown>;
  manifest?: BundleManifest;
}

const DATA_FILES = new Set(['data.json', 'data.yaml', 'data.yml']);

/** `./a/b`, `/a/b` and `a\b` name the same bundle path `a/b`. */
export function bundlePath(p: string): string {
  return p.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
}

/** Reads a bundle's files; throws RegoError (`rego_compile_error`, or `rego_parse_error` for bad data). */
export function readBundle(files: Record<string, string>, opts: { regoVersion?: 0 | 1; name?: string } = {}): ReadBundle {
  const name = opts.name ?? 'bundle';
  const out: ReadBundle = { modules: {}, regoVersions: {}, data: {} };
  const paths = Object.keys(files).map((p) => [p, bundlePath(p)] as const);
  const manifestEntry = paths.find(([, p]) => p === '.manifest');
  if (manifestEntry) out.manifest = parseManifest(files[manifestEntry[0]], `${name}/.manifest`);
  const m = out.manifest;
  const dataDocs: Array<[string[], unknown, string]> = [];
  for (const [key, p] of paths.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
    const parts = p.split('/');
    const base = parts[parts.length - 1];
    if (p.endsWith('.rego')) {
      out.modules[p] = files[key];
      out.regoVersions[p] = versionFor(p, m, opts.regoVersion);
    } else if (DATA_FILES.has(base)) {
      dataDocs.push([parts.slice(0, -1), parseData(files[key], base, p), p]);
    }
  }
  for (const [mount, doc, p] of dataDocs) {
    if (m?.roots) checkDataRoots(m.roots, mount, doc, p);
    mountDocument(out.data, mount, doc, (msg) => new RegoError('rego_compile_error', `${p}: ${msg}`));
  }
  if (m?.roots) {
    for (const [p, src] of Object.entries(out.modules)) {
      let pkg: string[];
      try {
        pkg = parseModule(src, p, { regoVersion: out.regoVersions[p] }).package.path;
      } catch {
        continue; // the compile reports it
      }
      if (!m.roots.some((r) => underRoot(r, pkg))) {
        throw new RegoError('rego_compile_error', `manifest roots ${rootsText(m.roots)} do not permit 'package ${pkg.join('.')}' in module file '${p}'`);
      }
    }
  }
  return out;
}

function parseManifest(text: string, where: string): BundleManifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new RegoError('rego_compile_error', `${where}: ${(e as Error).message}`);
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw new RegoError('rego_compile_error', `${where}: the manifest must be a JSON object`);
  const man = m as BundleManifest;
  const isVersion = (v: unknown) => v === 0 || v === 1;
  if (man.rego_version !== undefined && !isVersion(man.rego_version)) {
    throw new RegoError('rego_compile_error', `${where}: rego_version must be 0 or 1, got ${JSON.stringify(man.rego_version)}`);
  }
  for (const [k, v] of Object.entries(man.file_rego_versions ?? {})) {
    if (!isVersion(v)) throw new RegoError('rego_compile_error', `${where}: file_rego_versions[${JSON.stringify(k)}] must be 0 or 1`);
  }
  if (man.roots !== undefined && (!Array.isArray(man.roots) || man.roots.some((r) => typeof r !== 'string'))) {
    throw new RegoError('rego_compile_error', `${where}: roots must be an array of strings`);
  }
  return man;
}

function versionFor(path: string, m: BundleManifest | undefined, fallback: 0 | 1 | undefined): 0 | 1 {
  const fv = m?.file_rego_versions;
  if (fv) {
    // an exact path wins over patterns; among patterns, the longest (most specific) first
    const entries = Object.entries(fv).map(([k, v]) => [bundlePath(k), v] as const);
    const exact = entries.find(([k]) => k === path);
    if (exact) return exact[1] as 0 | 1;
    const hit = entries.filter(([k]) => globMatch(k, path)).sort((a, b) => b[0].length - a[0].length)[0];
    if (hit) return hit[1] as 0 | 1;
  }
  if (m?.rego_version !== undefined) return m.rego_version as 0 | 1;
  return fallback ?? 1;
}

/** Go's path.Match: `*` any run of non-`/` characters, `?` one, `[...]` a class (`[^...]` negated), `\` escapes. */
export function globMatch(pattern: string, path: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i]);
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) return false;
      let cls = pattern.slice(i + 1, end);
      if (cls.startsWith('^')) cls = '^' + cls.slice(1).replace(/\\/g, '\\\\');
      else cls = cls.replace(/\\/g, '\\\\');
      re += `[${cls}]`;
      i = end;
    } else re += escapeRe(c);
  }
  try {
    return new RegExp(re + '$').test(path);
  } catch {
    return false;
  }
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function parseData(text: string, base: string, where: string): unknown {
  try {
    return base === 'data.json' ? JSON.parse(text) : YAML.parse(text);
  } catch (e) {
    throw new RegoError('rego_parse_error', `${where}: ${(e as Error).message}`);
  }
}

function rootsText(roots: string[]): string {
  return `[${roots.join(' ')}]`;
}

/** Is `path` at or below `root` (`a/b` is below root `a`; root `""` holds everything)? */
function underRoot(root: string, path: string[]): boolean {
  if (root === '') return true;
  const r = root.split('/');
  return r.length <= path.length && r.every((x, i) => x === path[i]);
}

/**
 * Every value a data document writes must lie under a root: walking down from the mount point, a path under a
 * root is fine, a path that only leads to roots must be an object (whose keys are checked in turn).
 */
function checkDataRoots(roots: string[], mount: string[], doc: unknown, where: string): void {
  const leadsToRoot = (path: string[]) => roots.some((r) => r.split('/').length > path.length && underRoot(path.join('/'), r.split('/')));
  const visit = (path: string[], v: unknown): void => {
    if (roots.some((r) => underRoot(r, path))) return;
    if (leadsToRoot(path) && isPlainObject(v)) {
      for (const k of Object.keys(v)) visit([...path, k], v[k]);
      return;
    }
    throw new RegoError('rego_compile_error', `manifest roots ${rootsText(roots)} do not permit data at path '/${path.join('/')}' (file ${where})`);
  };
  visit(mount, doc);
}

/**
 * Mounts `doc` at `mount` inside `data`, merging objects; two documents writing the same leaf is an error
 * (`fail` makes it). Keys such as `__proto__` stay own data.
 */
export function mountDocument(data: Record<string, unknown>, mount: string[], doc: unknown, fail: (msg: string) => Error): void {
  if (mount.length === 0) {
    if (!isPlainObject(doc)) throw fail('a root data document must be an object');
    merge(data, doc, fail, []);
    return;
  }
  let wrapped: unknown = doc;
  for (let i = mount.length - 1; i >= 0; i--) {
    const o: Record<string, unknown> = {};
    define(o, mount[i], wrapped);
    wrapped = o;
  }
  merge(data, wrapped as Record<string, unknown>, fail, []);
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>, fail: (msg: string) => Error, at: string[]): void {
  for (const key of Object.keys(from)) {
    const have = Object.prototype.hasOwnProperty.call(into, key) ? into[key] : undefined;
    const add = from[key];
    if (have === undefined) define(into, key, add);
    else if (isPlainObject(have) && isPlainObject(add)) merge(have, add, fail, [...at, key]);
    else throw fail(`data at ${[...at, key].join('.')} conflicts with another document`);
  }
}

function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
