/**
 * Loads policies and data from the paths given on the command line, the way OPA loads a bundle directory:
 * every `.rego` file becomes a module (named by its path as the user would type it), and every `data.json` /
 * `data.yaml` / `data.yml` is mounted under `data` at its folder's path relative to the root it was found under
 * (`-d bundle` with `bundle/a/b/data.json` gives `data.a.b`). A JSON/YAML file passed directly is mounted at the
 * root. Other JSON files in a directory (inputs, fixtures) are ignored on purpose. `loadBundleDir` reads a folder
 * as a bundle, honouring its `.manifest`.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { mountDocument, readBundle } from '../src/bundle';

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

/** Mounts `doc` at `mount` inside `data` (objects merge; a conflicting leaf is a LoadError naming the file). */
function mountAt(data: Record<string, unknown>, mount: string[], doc: unknown, name: string): void {
  mountDocument(data, mount, doc, (msg) => new LoadError(`${name}: ${msg}`));
}

/**
 * Reads a folder as an OPA bundle (`-b`): its `.manifest` (rego_version, file_rego_versions, roots), modules and
 * data.json/data.yaml documents, through the library's bundle reader. Modules are named by their path as the
 * user would type it; `regoVersions` gives each one's version.
 */
export function loadBundleDir(root: string, cwd: string, regoVersion: 0 | 1 | undefined, into: Loaded, regoVersions: Record<string, 0 | 1>): void {
  const abs = path.resolve(cwd, root);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new LoadError(`${root}: not a bundle directory`);
  const files: Record<string, string> = {};
  const walkAll = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) walkAll(full);
      } else if (e.isFile() && (e.name === '.manifest' || /\.(rego|json|ya?ml)$/.test(e.name))) {
        files[path.relative(abs, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
      }
    }
  };
  walkAll(abs);
  let read;
  try {
    read = readBundle(files, { regoVersion, name: root });
  } catch (e) {
    throw new LoadError((e as Error).message.replace(/^rego_[a-z_]+: /, ''));
  }
  for (const [rel, src] of Object.entries(read.modules)) {
    const name = displayName(path.join(abs, ...rel.split('/')), cwd);
    into.files[name] = src;
    regoVersions[name] = read.regoVersions[rel];
  }
  mountAt(into.data, [], read.data, root);
}
