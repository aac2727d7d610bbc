import { FieldErrors, ValidationError } from '../../../common/errors/app-error';

/**
 * Reading an `admission.k8s.io/v1` AdmissionReview by hand: a pod carries hundreds of fields this service does
 * not read, so the body is not held to a DTO; only what is read is checked, and anything malformed is a 400
 * naming its path (the API server then applies the webhook's failurePolicy).
 */

/** One container of the pod (or pod template) under review. */
export interface ReviewedImage {
  /** `containers[0]`, `initContainers[1]`, `ephemeralContainers[0]`, with the container's name. */
  container: string;
  image: string;
  /** The image reference without its digest (what `artifact.name` reads). */
  name: string;
  /** The sha256 digest, 64 hex; null when the reference has none. */
  fingerprint: string | null;
}

export interface ReviewRequest {
  uid: string;
  kind: string;
  namespace: string | null;
  operation: string;
  /** The containers to judge; null when the object is not a pod or pod template (nothing to judge). */
  images: ReviewedImage[] | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where each kind keeps its pod spec. */
const POD_SPEC_PATHS: Record<string, string[]> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  PodTemplate: ['template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
const DIGEST = /^(.+)@sha256:([a-f0-9]{64})$/;

export function parseImage(image: string): { name: string; fingerprint: string | null } {
  const m = DIGEST.exec(image);
  if (m) return { name: m[1], fingerprint: m[2] };
  const at = image.indexOf('@');
  return { name: at >= 0 ? image.slice(0, at) : image, fingerprint: null };
}

export function readAdmissionReview(body: unknown): ReviewRequest {
  const errors: FieldErrors = {};
  if (!isObj(body)) throw new ValidationError({ body: 'must be an AdmissionReview object' });
  if (body.apiVersion !== 'admission.k8s.io/v1') errors.apiVersion = 'must be admission.k8s.io/v1';
  if (body.kind !== 'AdmissionReview') errors.kind = 'must be AdmissionReview';
  const request = body.request;
  if (!isObj(request)) {
    errors.request = 'is required: an object';
    throw new ValidationError(errors);
  }
  const uid = request.uid;
  if (typeof uid !== 'string' || uid.length === 0 || uid.length > 256) errors['request.uid'] = 'must be a string of 1 to 256 characters';
  const kind = isObj(request.kind) ? request.kind.kind : undefined;
  if (typeof kind !== 'string') errors['request.kind.kind'] = 'must be a string';
  const operation = request.operation;
  if (typeof operation !== 'string') errors['request.operation'] = 'must be a string';
  const namespace = request.namespace;
  if (namespace !== undefined && namespace !== null && typeof namespace !== 'string') errors['request.namespace'] = 'must be a string';
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const review = { uid: uid as string, kind: kind as string, namespace: (namespace as string | null | undefined) ?? null, operation: operation as string };

  const path = POD_SPEC_PATHS[review.kind];
  if (!path || review.operation === 'DELETE' || review.operation === 'CONNECT') return { ...review, images: null };
  if (!isObj(request.object)) throw new ValidationError({ 'request.object': `is required for ${review.operation} of a ${review.kind}` });
  let spec: unknown = request.object;
  const at = ['request.object'];
  for (const key of path) {
    at.push(key);
    spec = isObj(spec) ? spec[key] : undefined;
    if (!isObj(spec)) throw new ValidationError({ [at.join('.')]: 'is required: an object' });
  }
  const images: ReviewedImage[] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = (spec as Obj)[list];
    if (containers === undefined || containers === null) continue;
    const where = `${at.join('.')}.${list}`;
    if (!Array.isArray(containers)) throw new ValidationError({ [where]: 'must be a list' });
    containers.forEach((c, i) => {
      const image = isObj(c) ? c.image : undefined;
      const name = isObj(c) ? c.name : undefined;
      if (typeof image !== 'string' || image.length === 0 || image.length > 4096) errors[`${where}[${i}].image`] = 'must be a string of 1 to 4096 characters';
      else images.push({ container: `${list}[${i}]${typeof name === 'string' ? ` '${name.slice(0, 253)}'` : ''}`, image, ...parseImage(image) });
    });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { ...review, images };
}

/** The AdmissionReview the API server reads back. */
export interface AdmissionReviewResponse {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  response: {
    uid: string;
    allowed: boolean;
    status?: { code: number; reason: string; message: string };
    warnings?: string[];
  };
}

export type AdmissionMode = 'enforce' | 'warn' | 'off';

/** An image that does not pass, with why. */
export interface Refusal {
  image: ReviewedImage;
  reasons: string[];
}

/**
 * The answer: allowed when nothing is refused; otherwise denied (403, every refused image with its reasons) in
 * `enforce`, allowed with one warning per refused image in `warn`.
 */
export function answer(uid: string, mode: AdmissionMode, environment: string, refusals: readonly Refusal[]): AdmissionReviewResponse {
  const base = { apiVersion: 'admission.k8s.io/v1' as const, kind: 'AdmissionReview' as const };
  if (!refusals.length) return { ...base, response: { uid, allowed: true } };
  const lines = refusals.map((r) => `${r.image.container} image '${r.image.image}': ${r.reasons.join('; ')}`);
  if (mode === 'warn') return { ...base, response: { uid, allowed: true, warnings: lines.map((l) => `veritrail (${environment}, warn mode): ${l}`) } };
  return {
    ...base,
    response: {
      uid,
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: `denied by the policies of environment '${environment}': ${lines.join(' | ')}` },
    },
  };
}
