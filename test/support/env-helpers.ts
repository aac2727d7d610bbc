import { createHash } from 'node:crypto';
import { bearer, TestOrg } from './factories';
import { TestApp } from './test-app';

export const digest = (seed: string) => createHash('sha256').update(seed).digest('hex');

export interface Pod {
  podName: string;
  namespace: string;
  digests: Record<string, string>;
  creationTimestamp: number;
  owners?: Array<Record<string, unknown>> | null;
}

export const pod = (name: string, digests: Record<string, string>, extra: Partial<Pod> = {}): Pod => ({
  podName: name,
  namespace: 'default',
  digests,
  creationTimestamp: 1700000000,
  owners: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-rs`, uid: 'u-1', controller: true, blockOwnerDeletion: true }],
  ...extra,
});

export function envApi(t: TestApp, org: TestOrg, key = org.adminKey) {
  const auth = bearer(key);
  return {
    create: (body: Record<string, unknown>) => t.http().put(`/api/v2/environments/${org.name}`).set(...auth).send(body),
    get: (env: string) => t.http().get(`/api/v2/environments/${org.name}/${env}`).set(...auth),
    list: (query: Record<string, unknown> = {}) => t.http().get(`/api/v2/environments/${org.name}`).query(query).set(...auth),
    report: (env: string, type: string, body: unknown) =>
      t.http().put(`/api/v2/environments/${org.name}/${env}/report/${type}`).set(...auth).send(body as object),
    join: (logical: string, physical: unknown) =>
      t.http().put(`/api/v2/environments/${org.name}/${logical}/join`).set(...auth).send({ physical_env_name: physical }),
    snapshot: (env: string, expression: string) =>
      t.http().get(`/api/v2/snapshots/${org.name}/${env}/${encodeURIComponent(expression)}`).set(...auth),
    snapshots: (env: string, query: Record<string, unknown> = {}) => t.http().get(`/api/v2/snapshots/${org.name}/${env}`).query(query).set(...auth),
    diff: (env: string, query: Record<string, unknown> = {}) => t.http().get(`/api/v2/environments/${org.name}/${env}/diff`).query(query).set(...auth),
    /** What `kosli diff snapshots A B` calls. */
    envDiff: (snappish1: string, snappish2: string) => t.http().get(`/api/v2/env-diff/${org.name}`).query({ snappish1, snappish2 }).set(...auth),
  };
}
