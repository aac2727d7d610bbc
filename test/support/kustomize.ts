import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * Renders a kustomization the way `kubectl kustomize` does, for the small part of kustomize that deploy/k8s uses:
 * `resources` (files and directories holding a kustomization), `namespace`, `labels` (without selectors),
 * `images` and JSON 6902 `patches` with a `target`. Any other field, or an option of these it does not
 * implement, is an error naming it: the renderer never drops what it does not understand, so what the tests check
 * is what kustomize would apply. Order of application within one kustomization follows kustomize: resources,
 * then patches, then namespace, labels and images.
 */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
};

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);
const LABEL_FIELDS = new Set(['pairs', 'includeSelectors', 'includeTemplates']);
const IMAGE_FIELDS = new Set(['name', 'newName', 'newTag', 'digest']);
const PATCH_FIELDS = new Set(['target', 'patch', 'path']);
const TARGET_FIELDS = new Set(['group', 'version', 'kind', 'name']);
/** Kinds whose pod template the image and template-label transformers reach. */
const POD_TEMPLATE_PATHS: Record<string, string[]> = {
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
};

export class KustomizeError extends Error {}

function fail(dir: string, message: string): never {
  throw new KustomizeError(`${path.join(dir, 'kustomization.yaml')}: ${message}`);
}

function checkFields(dir: string, where: string, value: Record<string, unknown>, known: Set<string>): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) fail(dir, `${where}${key} is not supported by this renderer`);
  }
}

function readYamlDocuments(file: string): unknown[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
  return docs
    .map((doc) => {
      if (doc.errors.length) throw new KustomizeError(`${file}: ${doc.errors[0].message}`);
      return doc.toJS();
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

export function renderKustomization(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  if (!fs.existsSync(file)) throw new KustomizeError(`${dir}: no kustomization.yaml`);
  const [k] = readYamlDocuments(file) as Record<string, any>[];
  checkFields(dir, '', k, KNOWN_FIELDS);
  if (k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || k.kind !== 'Kustomization') {
    fail(dir, 'apiVersion/kind must be kustomize.config.k8s.io/v1beta1 Kustomization');
  }

  let objects: K8sObject[] = [];
  for (const entry of (k.resources ?? []) as string[]) {
    const target = path.resolve(dir, entry);
    if (!fs.existsSync(target)) fail(dir, `resource ${entry} does not exist`);
    objects.push(
      ...(fs.statSync(target).isDirectory() ? renderKustomization(target) : (readYamlDocuments(target) as K8sObject[])),
    );
  }
  const ids = new Set<string>();
  for (const o of objects) {
    if (!o?.apiVersion || !o.kind || !o.metadata?.name) fail(dir, `a resource lacks apiVersion, kind or metadata.name`);
    const id = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (ids.has(id)) fail(dir, `${o.kind} ${o.metadata.name} is declared twice`);
    ids.add(id);
  }

  for (const [i, p] of ((k.patches ?? []) as Record<string, any>[]).entries()) {
    checkFields(dir, `patches[${i}].`, p, PATCH_FIELDS);
    if (!p.target) fail(dir, `patches[${i}] has no target: only JSON 6902 patches with a target are supported`);
    checkFields(dir, `patches[${i}].target.`, p.target, TARGET_FIELDS);
    const text = p.path ? fs.readFileSync(path.resolve(dir, p.path), 'utf8') : p.patch;
    const [ops] = parseAllDocuments(String(text)).map((d) => d.toJS());
    if (!Array.isArray(ops)) fail(dir, `patches[${i}] is not a list of JSON 6902 operations`);
    const matches = objects.filter((o) => matchesTarget(o, p.target));
    if (!matches.length) fail(dir, `patches[${i}] matches no resource`);
    objects = objects.map((o) => (matches.includes(o) ? applyJson6902(dir, i, o, ops) : o));
  }

  if (k.namespace !== undefined) {
    for (const o of objects) o.metadata.namespace = k.namespace;
  }

  for (const [i, l] of ((k.labels ?? []) as Record<string, any>[]).entries()) {
    checkFields(dir, `labels[${i}].`, l, LABEL_FIELDS);
    if (l.includeSelectors) fail(dir, `labels[${i}].includeSelectors: true is not supported (it rewrites selectors)`);
    for (const o of objects) {
      o.metadata.labels = { ...(o.metadata.labels ?? {}), ...l.pairs };
      const templatePath = POD_TEMPLATE_PATHS[o.kind];
      if (l.includeTemplates && templatePath) {
        const template = dig(o, templatePath) as any;
        template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), ...l.pairs } };
      }
    }
  }

  for (const [i, image] of ((k.images ?? []) as Record<string, any>[]).entries()) {
    checkFields(dir, `images[${i}].`, image, IMAGE_FIELDS);
    if (!image.name) fail(dir, `images[${i}] has no name`);
    for (const o of objects) {
      const templatePath = POD_TEMPLATE_PATHS[o.kind];
      if (!templatePath) continue;
      const spec = (dig(o, templatePath) as any)?.spec ?? {};
      for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
        if (imageName(c.image) !== image.name) continue;
        const name = image.newName ?? image.name;
        c.image = image.digest ? `${name}@${image.digest}` : `${name}:${image.newTag ?? imageTag(c.image) ?? 'latest'}`;
      }
    }
  }
  return objects;
}

function dig(o: unknown, keys: string[]): unknown {
  return keys.reduce<any>((v, key) => (v == null ? v : v[key]), o);
}

function imageName(image: string): string {
  const at = image.split('@')[0];
  const slash = at.lastIndexOf('/');
  const colon = at.lastIndexOf(':');
  return colon > slash ? at.slice(0, colon) : at;
}

function imageTag(image: string): string | undefined {
  const at = image.split('@')[0];
  const colon = at.lastIndexOf(':');
  return colon > at.lastIndexOf('/') ? at.slice(colon + 1) : undefined;
}

function matchesTarget(o: K8sObject, target: Record<string, string>): boolean {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  return (
    (target.kind === undefined || target.kind === o.kind) &&
    (target.name === undefined || target.name === o.metadata.name) &&
    (target.group === undefined || target.group === group) &&
    (target.version === undefined || target.version === version)
  );
}

/** RFC 6902 add, replace and remove (the operations the overlays use); others are refused. */
function applyJson6902(dir: string, i: number, o: K8sObject, ops: Record<string, any>[]): K8sObject {
  const copy = structuredClone(o);
  for (const op of ops) {
    if (!['add', 'replace', 'remove'].includes(op.op)) fail(dir, `patches[${i}]: operation ${op.op} is not supported`);
    const keys = String(op.path)
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    const parent = dig(copy, keys) as any;
    if (parent == null || typeof parent !== 'object') fail(dir, `patches[${i}]: ${op.path} has no parent in ${o.kind} ${o.metadata.name}`);
    const exists = Array.isArray(parent) ? Number(last) < parent.length : last in parent;
    if (op.op !== 'add' && !exists) fail(dir, `patches[${i}]: ${op.op} ${op.path}: no such field in ${o.kind} ${o.metadata.name}`);
    if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (Array.isArray(parent) && op.op === 'add') {
      parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
    } else {
      parent[last] = op.value;
    }
  }
  return copy;
}
