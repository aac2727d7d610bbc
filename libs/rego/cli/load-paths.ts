/**
 * Loads policies and data from the paths given on the command line, the way OPA loads a bundle directory:
 * every `.rego` file becomes a module (named by its path as the user would type it), and every `data.json` /
 * `data.yaml` / `data.yml` is mounted under `data` at its folder's path relative to the root it was found under
 * (`-d bundle` with `bundle/a/b/data.json` gives `data.a.b`). A JSON/YAML file passed directly is mounted at the
 * root. Other JSON files in a directory (inputs, fixtures) are ignored on purpose.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';

export interface Loaded {
  files: Record<string, string>;
  data: Record<string, unknown>;
}

export class LoadError extends Error {}

const DATA_NAMES = new Set(['data.json', 'data.yaml', 'data.yml']);

export function loadPaths(roots: string[], cwd = process.cwd()): Loaded {
  const loaded: Loaded = { files: {}, data: {} };
  for (const root of roots) {
    const abs = path.resolve(cwd, root);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      throw new LoadError(`${root}: no such file or directory`);
    }
    if (stat.isDirectory()) walk(abs, abs, cwd, loaded);
    else loadFile(abs, [], cwd, loaded, true);
  }
  return loaded;
}

function walk(dir: string, root: string, cwd: string, loaded: Loaded): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    // Hidden folders (.git, .opa) never hold policy.
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, root, cwd, loaded);
    else if (entry.isFile()) {
      const rel = path.relative(root, dir);
      loadFile(full, rel === '' ? [] : rel.split(path.sep), cwd, loaded, false);
    }
  }
}

function loadFile(abs: string, mount: string[], cwd: string, loaded: Loaded, direct: boolean): void {
  const name = displayName(abs, cwd);
  const base = path.basename(abs);
  if (base.endsWith('.rego')) {
    loaded.files[name] = fs.readFileSync(abs, 'utf8');
    return;
  }
  const isData = DATA_NAMES.has(base) || (direct && /\.(json|ya?ml)$/.test(base));
  if (!isData) return;
  const doc = parseDocument(abs, name);
  mountAt(loaded.data, mount, doc, name);
}

export function parseDocument(abs: string, name = abs): unknown {
  const text = fs.readFileSync(abs, 'utf8');
  try {
    return /\.ya?ml$/.test(abs) ? YAML.parse(text) : JSON.parse(text);
  } catch (e) {
    throw new LoadError(`${name}: ${(e as Error).message}`);
  }
}

function displayName(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? abs : rel;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Mounts `doc` at `mount` inside `data`, merging objects; two documents writing the same leaf is an error. */
function mountAt(data: Record<string, unknown>, mount: string[], doc: unknown, name: string): void {
  if (mount.length === 0) {
    if (!isPlainObject(doc)) throw new LoadError(`${name}: a root data document must be an object`);
    merge(data, doc, name, []);
    return;
  }
  let wrapped: unknown = doc;
  for (let i = mount.length - 1; i >= 0; i--) {
    const o: Record<string, unknown> = {};
    define(o, mount[i], wrapped);
    wrapped = o;
  }
  merge(data, wrapped as Record<string, unknown>, name, []);
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>, name: string, at: string[]): void {
  for (const key of Object.keys(from)) {
    const have = Object.prototype.hasOwnProperty.call(into, key) ? into[key] : undefined;
    const add = from[key];
    if (have === undefined) define(into, key, add);
    else if (isPlainObject(have) && isPlainObject(add)) merge(have, add, name, [...at, key]);
    else throw new LoadError(`${name}: data at ${[...at, key].join('.')} conflicts with another document`);
  }
}

/** Own data property even for keys like "__proto__". */
function define(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}
