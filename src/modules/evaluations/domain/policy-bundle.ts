import { parseLimitedYaml, YamlLimits } from '../../../common/validation/limited-yaml';
import { canonicalJson, sha256Hex } from './canonical-json';
import { PolicyBundleError } from './evaluation-error';
import { isPlainObject } from '../../../common/validation/plain-object';

/** An inline OPA bundle, split into what runs it. */
export interface PolicyBundle {
  /** `.rego` modules by path */
  modules: Record<string, string>;
  /** the bundle's `.manifest` text, if any (its `rego_version` / `file_rego_versions` say which modules are Rego v0) */
  manifest: string | null;
  /** the data documents mounted at their folders' paths (`a/b/data.json` is `data.a.b`) */
  data: Record<string, unknown>;
  /** an OPA-compiled `policy.wasm` (sent as base64 text), run instead of the modules when present */
  wasm: Buffer | null;
  /** sha256 (hex) of each file's text */
  fileDigests: Record<string, string>;
  /** `sha256:<hex>` of the canonical JSON of fileDigests: the bundle's identity */
  digest: string;
}

/** What a path in `policy.files` must look like: relative, `/`-separated, no empty, `.` or `..` segment. */
export function policyPathProblem(path: string): string | null {
  if (path.length === 0 || path.length > 512) return 'must be 1 to 512 characters';
  if (path.startsWith('/')) return 'must be a relative path';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f]/.test(path)) return 'must not contain backslashes or control characters';
  if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) return "must not contain empty, '.' or '..' segments";
  return null;
}

/** The identity of a set of policy files: per-file sha256 and the bundle digest over them. */
export function bundleDigests(files: Record<string, string>): { fileDigests: Record<string, string>; digest: string } {
  const fileDigests: Record<string, string> = {};
  for (const path of Object.keys(files).sort()) fileDigests[path] = sha256Hex(files[path]);
  return { fileDigests, digest: `sha256:${sha256Hex(canonicalJson(fileDigests))}` };
}

/** Data documents may share values through aliases, within a bound; they nest as deep as data reasonably does. */
const DATA_YAML_LIMITS: YamlLimits = { maxAliasCount: 100, maxDepth: 64, refuseUnknownTags: false };

const DATA_FILE = /(^|\/)data\.(json|ya?ml)$/;

/**
 * Splits `policy.files` as OPA reads a bundle: `.rego` files are modules; `data.json` / `data.yaml` are data
 * documents mounted at their folder's path; one `*.wasm` file (base64 text) is an OPA-compiled policy;
 * `.manifest` may declare `rego_version` and `file_rego_versions` (0 or 1, the default: the engine compiles v0
 * modules as v0; any other value is a compile error); other files are carried but unused.
 * A document that does not parse is a `policy_parse_error`; two documents that set the same value, a
 * `policy_compile_error`.
 */
export function loadBundle(
  files: Record<string, string>,
  /** bundleDigests(files), when the caller has computed them already (the files are not hashed again) */
  digests: { fileDigests: Record<string, string>; digest: string } = bundleDigests(files),
): PolicyBundle {
  const { fileDigests, digest } = digests;
  const modules: Record<string, string> = {};
  const data: Record<string, unknown> = {};
  let wasm: Buffer | null = null;
  let manifest: string | null = null;
  for (const path of Object.keys(files).sort()) {
    const text = files[path];
    if (path.endsWith('.rego')) {
      modules[path] = text;
    } else if (DATA_FILE.test(path)) {
      const doc = parseDataDocument(path, text);
      const folder = path.split('/').slice(0, -1);
      mount(data, folder, doc, path);
    } else if (path.endsWith('.wasm')) {
      if (wasm) throw new PolicyBundleError('policy_compile_error', `more than one .wasm file in the bundle (${path})`);
      const compact = text.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
        throw new PolicyBundleError('policy_parse_error', `${path}: not base64 text`);
      }
      wasm = Buffer.from(compact, 'base64');
      if (wasm.subarray(0, 4).toString('binary') !== '\u0000asm') throw new PolicyBundleError('policy_parse_error', `${path}: not a WebAssembly module`);
    } else if (path === '.manifest') {
      checkManifest(path, text);
      manifest = text;
    }
  }
  if (!wasm && !Object.keys(modules).length) throw new PolicyBundleError('policy_compile_error', 'the bundle has no .rego file and no .wasm file');
  return { modules, manifest, data, wasm, fileDigests, digest };
}

function parseDataDocument(path: string, text: string): unknown {
  try {
    if (path.endsWith('.json')) return JSON.parse(text);
    return parseLimitedYaml(text, DATA_YAML_LIMITS);
  } catch (error) {
    throw new PolicyBundleError('policy_parse_error', `${path}: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * Data keys are the bundle author's: `__proto__` is a key like any other (OPA's data can hold one). So members
 * are looked up as own properties and defined, never assigned: `node['__proto__'] = doc` would set a prototype,
 * and merging into the `__proto__` found on a plain object would write into `Object.prototype` of the process.
 */
const hasOwn = (node: object, key: string): boolean => Object.prototype.hasOwnProperty.call(node, key);
function put(node: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

function mount(root: Record<string, unknown>, folder: string[], doc: unknown, path: string): void {
  if (!folder.length) {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
      throw new PolicyBundleError('policy_compile_error', `${path}: the root data document must be an object`);
    }
    merge(root, doc as Record<string, unknown>, path, []);
    return;
  }
  let node = root;
  for (const [i, segment] of folder.entries()) {
    if (i === folder.length - 1) {
      if (hasOwn(node, segment)) {
        const existing = node[segment];
        if (isPlainObject(existing) && isPlainObject(doc)) merge(existing, doc, path, folder);
        else throw new PolicyBundleError('policy_compile_error', `${path}: data.${folder.join('.')} is set twice`);
      } else put(node, segment, doc);
      return;
    }
    if (!hasOwn(node, segment)) put(node, segment, {});
    const next = node[segment];
    if (!isPlainObject(next)) throw new PolicyBundleError('policy_compile_error', `${path}: data.${folder.slice(0, i + 1).join('.')} is set twice`);
    node = next;
  }
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>, path: string, at: string[]): void {
  for (const [key, value] of Object.entries(from)) {
    if (!hasOwn(into, key)) put(into, key, value);
    else if (isPlainObject(into[key]) && isPlainObject(value)) merge(into[key] as Record<string, unknown>, value, path, [...at, key]);
    else throw new PolicyBundleError('policy_compile_error', `${path}: data.${[...at, key].join('.')} is set twice`);
  }
}

function checkManifest(path: string, text: string): void {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new PolicyBundleError('policy_parse_error', `${path}: ${(error as Error).message}`);
  }
  if (!isPlainObject(manifest)) throw new PolicyBundleError('policy_parse_error', `${path}: must be a JSON object`);
  const versions = [manifest.rego_version, ...Object.values(isPlainObject(manifest.file_rego_versions) ? manifest.file_rego_versions : {})];
  if (versions.some((v) => v !== undefined && v !== 0 && v !== 1)) {
    throw new PolicyBundleError('policy_compile_error', `${path}: rego_version must be 0 or 1`);
  }
}
