import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../src/common/config/app-config';
import { K8sObject, KustomizeError, renderKustomization } from '../support/kustomize';

/**
 * deploy/k8s rendered as kustomize would (test/support/kustomize.ts) and checked against the Kubernetes API
 * schemas and the rules a reviewer would check by hand (deploy/k8s/README.md, "Testing note").
 */
const ROOT = path.resolve(__dirname, '../..');
const K8S = path.join(ROOT, 'deploy/k8s');
const REGIONS = ['eu', 'us'] as const;
const TREES = { base: path.join(K8S, 'base'), ...Object.fromEntries(REGIONS.map((r) => [r, path.join(K8S, 'overlays', r)])) };

type Container = Record<string, any>;
type PodSpec = { containers: Container[]; initContainers?: Container[]; securityContext?: Record<string, any>; [k: string]: any };

const podTemplate = (o: K8sObject): { metadata: { labels: Record<string, string> }; spec: PodSpec } | undefined =>
  o.kind === 'Deployment' || o.kind === 'Job' ? (o as any).spec.template : undefined;
const find = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not rendered`);
  return found;
};
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

/** The schemas of kubernetes-models, by apiVersion: `v1` is the core group. */
function validate(o: K8sObject): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const models = require(`kubernetes-models/${o.apiVersion}`);
  const Model = models[o.kind];
  if (!Model) throw new Error(`kubernetes-models has no ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

/** The Secret keys deploy/k8s/README.md tells the operator to create ("Secrets the operator provides"). */
function operatorSecrets(): { secret: string; key: string; required: boolean }[] {
  const readme = fs.readFileSync(path.join(K8S, 'README.md'), 'utf8');
  const section = readme.split('## Secrets the operator provides')[1].split('\n## ')[0];
  return [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (yes|no) \|/gm)].map((m) => ({ secret: m[1], key: m[2], required: m[3] === 'yes' }));
}

/** The environment a container gets, with each secret reference filled by a placeholder of the right shape. */
function effectiveEnv(objects: K8sObject[], c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, (find(objects, 'ConfigMap', from.configMapRef.name) as any).data);
    if (from.secretRef) throw new Error('whole-Secret envFrom hides which keys a pod needs: reference keys one by one');
  }
  const placeholders: Record<string, string> = {
    DATABASE_URL: 'postgres://veritrail:secret@db.internal:5432/veritrail',
    ADMIN_TOKEN: 'operator-token-0123456789abcdef',
  };
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.configMapKeyRef) env[e.name] = (find(objects, 'ConfigMap', e.valueFrom.configMapKeyRef.name) as any).data[e.valueFrom.configMapKeyRef.key];
    else if (e.valueFrom?.secretKeyRef) {
      if (!e.valueFrom.secretKeyRef.optional) env[e.name] = placeholders[e.valueFrom.secretKeyRef.key] ?? 'placeholder';
    }
  }
  return env;
}

describe('deploy/k8s', () => {
  const rendered = Object.fromEntries(Object.entries(TREES).map(([name, dir]) => [name, renderKustomization(dir)])) as Record<
    'base' | 'eu' | 'us',
    K8sObject[]
  >;

  describe.each(Object.keys(TREES))('%s', (tree) => {
    const objects = rendered[tree as 'base'];
    const pods = objects.filter((o) => podTemplate(o));
    const containers = pods.flatMap((o) => [...(podTemplate(o)!.spec.initContainers ?? []), ...podTemplate(o)!.spec.containers].map((c) => ({ owner: o, c })));

    it('renders the API and worker Deployments, the migration Job and what they need', () => {
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
        [
          'ConfigMap/veritrail-config',
          'Deployment/veritrail-api',
          'Deployment/veritrail-worker',
          'HorizontalPodAutoscaler/veritrail-api',
          'HorizontalPodAutoscaler/veritrail-worker',
          'Job/veritrail-migrate',
          'NetworkPolicy/veritrail-api',
          'NetworkPolicy/veritrail-migrate',
          'NetworkPolicy/veritrail-worker',
          'PodDisruptionBudget/veritrail-api',
          'PodDisruptionBudget/veritrail-worker',
          'Service/veritrail-api',
          'ServiceAccount/veritrail',
        ].sort(),
      );
    });

    it('validates every object against the Kubernetes API schemas', () => {
      const errors: string[] = [];
      for (const o of objects) {
        try {
          validate(o);
        } catch (error) {
          errors.push(`${o.kind}/${o.metadata.name}: ${(error as Error).message}`);
        }
      }
      expect(errors).toEqual([]);
      expect(objects.filter((o) => o.apiVersion === 'autoscaling/v2')).toHaveLength(2);
    });

    it('runs one image: the API with ROLE=api, the workers with ROLE=worker, migrations in the Job only', () => {
      const images = new Set(containers.map(({ c }) => c.image));
      expect(images.size).toBe(1);
      expect([...images][0]).toBe('registry.example.com/veritrail:0.1.0');
      for (const [name, role] of [['veritrail-api', 'api'], ['veritrail-worker', 'worker']]) {
        const [c] = podTemplate(find(objects, 'Deployment', name))!.spec.containers;
        const env = effectiveEnv(objects, c);
        expect({ name, role: env.ROLE, migrations: env.MIGRATIONS_RUN, command: c.command }).toEqual({ name, role, migrations: 'false', command: undefined });
      }
      const job = podTemplate(find(objects, 'Job', 'veritrail-migrate'))!.spec;
      expect(job.containers[0].command).toEqual(['node', 'dist/src/database/cli/run-migrations.js']);
      expect(job.restartPolicy).toBe('Never');
    });

    it('gives every container resources and the non-root, read-only, unprivileged security context', () => {
      const problems: string[] = [];
      for (const { owner, c } of containers) {
        const pod = podTemplate(owner)!.spec;
        const where = `${owner.kind}/${owner.metadata.name} ${c.name}`;
        const user = c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
        if (!(c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot)) problems.push(`${where}: runAsNonRoot is not true`);
        if (!Number.isInteger(user) || user === 0) problems.push(`${where}: runAsUser is not a numeric non-root user`);
        if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
        if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
        if (c.securityContext?.privileged) problems.push(`${where}: privileged`);
        if (!c.securityContext?.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities are not all dropped`);
        if ((pod.securityContext?.seccompProfile ?? c.securityContext?.seccompProfile)?.type !== 'RuntimeDefault') problems.push(`${where}: no RuntimeDefault seccomp profile`);
        if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) problems.push(`${where}: no cpu and memory requests`);
        if (!c.resources?.limits?.memory) problems.push(`${where}: no memory limit`);
        if (pod.automountServiceAccountToken !== false) problems.push(`${where}: mounts a service account token`);
        if (pod.serviceAccountName !== 'veritrail') problems.push(`${where}: not the veritrail service account`);
        // With a read-only root, the process still stages uploads in the system temp folder.
        if (!c.volumeMounts?.some((m: any) => m.mountPath === '/tmp')) problems.push(`${where}: no writable /tmp`);
      }
      expect(problems).toEqual([]);
    });

    it('probes every long-running container: /health for liveness, /ready for readiness, on the port PORT names', () => {
      const deployments = objects.filter((o) => o.kind === 'Deployment');
      expect(deployments).toHaveLength(2);
      for (const d of deployments) {
        for (const c of podTemplate(d)!.spec.containers) {
          const port = Number(effectiveEnv(objects, c).PORT);
          const named = (ref: string | number) => (typeof ref === 'number' ? ref : c.ports.find((p: any) => p.name === ref)?.containerPort);
          expect({
            deployment: d.metadata.name,
            liveness: [c.livenessProbe?.httpGet?.path, named(c.livenessProbe?.httpGet?.port)],
            readiness: [c.readinessProbe?.httpGet?.path, named(c.readinessProbe?.httpGet?.port)],
            startup: [c.startupProbe?.httpGet?.path, named(c.startupProbe?.httpGet?.port)],
          }).toEqual({ deployment: d.metadata.name, liveness: ['/health', port], readiness: ['/ready', port], startup: ['/health', port] });
        }
      }
    });

    it('resolves every ConfigMap and Secret reference to a declared key or one the operator is told to provide', () => {
      const provided = operatorSecrets();
      const problems: string[] = [];
      const used = new Set<string>();
      for (const { owner, c } of containers) {
        const where = `${owner.kind}/${owner.metadata.name} ${c.name}`;
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef && !objects.some((o) => o.kind === 'ConfigMap' && o.metadata.name === from.configMapRef.name)) {
            problems.push(`${where}: ConfigMap ${from.configMapRef.name} is not declared`);
          }
          if (from.secretRef) problems.push(`${where}: envFrom a whole Secret (${from.secretRef.name})`);
        }
        for (const e of c.env ?? []) {
          const cm = e.valueFrom?.configMapKeyRef;
          if (cm && (find(objects, 'ConfigMap', cm.name) as any).data?.[cm.key] === undefined) problems.push(`${where}: ConfigMap ${cm.name} has no ${cm.key}`);
          const s = e.valueFrom?.secretKeyRef;
          if (!s) continue;
          used.add(`${s.name}/${s.key}`);
          const row = provided.find((p) => p.secret === s.name && p.key === s.key);
          const declared = objects.find((o) => o.kind === 'Secret' && o.metadata.name === s.name) as any;
          if (!row && !(declared?.data ?? declared?.stringData)?.[s.key]) problems.push(`${where}: Secret ${s.name} key ${s.key} is neither declared nor documented`);
          if (row && row.required === Boolean(s.optional)) problems.push(`${where}: ${s.name}/${s.key} is optional: ${s.optional}, documented as required: ${row.required}`);
        }
      }
      expect(problems).toEqual([]);
      // The documentation lists no key nothing reads.
      expect(provided.map((p) => `${p.secret}/${p.key}`).filter((k) => !used.has(k))).toEqual([]);
      for (const name of ['veritrail-api', 'veritrail-worker']) {
        const [c] = podTemplate(find(objects, 'Deployment', name))!.spec.containers;
        const fromSecret = Object.fromEntries((c.env ?? []).filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => [e.name, e.valueFrom.secretKeyRef]));
        expect(Object.keys(fromSecret).sort()).toEqual(
          ['ADMIN_TOKEN', 'DATABASE_URL', 'EVIDENCE_S3_ACCESS_KEY_ID', 'EVIDENCE_S3_BUCKET', 'EVIDENCE_S3_ENDPOINT', 'EVIDENCE_S3_REGION', 'EVIDENCE_S3_SECRET_ACCESS_KEY'],
        );
        // Without DATABASE_URL the service would start an embedded database inside the pod: never optional.
        expect([fromSecret.DATABASE_URL.optional, fromSecret.ADMIN_TOKEN.optional]).toEqual([undefined, undefined]);
      }
    });

    it('points the HPAs, PDBs, Service, spread constraints and NetworkPolicies at the pods they are for', () => {
      const podsOf = (selector: Record<string, string>) =>
        pods.filter((o) => selects(selector, podTemplate(o)!.metadata.labels)).map((o) => o.metadata.name);
      for (const d of objects.filter((o) => o.kind === 'Deployment') as any[]) {
        expect(selects(d.spec.selector.matchLabels, d.spec.template.metadata.labels)).toBe(true);
        for (const t of d.spec.template.spec.topologySpreadConstraints ?? []) expect(podsOf(t.labelSelector.matchLabels)).toEqual([d.metadata.name]);
      }
      for (const name of ['veritrail-api', 'veritrail-worker']) {
        const hpa = find(objects, 'HorizontalPodAutoscaler', name) as any;
        expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
        expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
        const pdb = find(objects, 'PodDisruptionBudget', name) as any;
        expect(podsOf(pdb.spec.selector.matchLabels)).toEqual([name]);
        // One replica left after a drain must still exist: the budget lets at most one go while the HPA keeps two.
        expect(pdb.spec.maxUnavailable).toBe(1);
      }
      const service = find(objects, 'Service', 'veritrail-api') as any;
      expect(podsOf(service.spec.selector)).toEqual(['veritrail-api']);
      const apiPorts = podTemplate(find(objects, 'Deployment', 'veritrail-api'))!.spec.containers[0].ports.map((p: any) => p.name);
      expect(apiPorts).toContain(service.spec.ports[0].targetPort);
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as any[];
      expect(policies.map((p) => podsOf(p.spec.podSelector.matchLabels)).sort()).toEqual([['veritrail-api'], ['veritrail-migrate'], ['veritrail-worker']]);
      // Every pod is covered for both directions.
      for (const p of policies) expect(p.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    });

    it('gives each pod settings the service accepts at start-up, for its region', () => {
      const region = tree === 'base' ? 'eu' : tree;
      for (const { owner, c } of containers) {
        const config = loadConfig(effectiveEnv(objects, c));
        expect({ pod: owner.metadata.name, region: config.region, migrationsRun: config.migrationsRun, hasDatabase: Boolean(config.databaseUrl) }).toEqual({
          pod: owner.metadata.name,
          region,
          migrationsRun: false,
          hasDatabase: true,
        });
        if (tree !== 'base') {
          const other = REGIONS.find((r) => r !== tree)!;
          expect(config.peerRegions).toEqual({ [other]: `https://${other}.veritrail.example.com` });
          expect(config.publicBaseUrl).toBe(`https://${tree}.veritrail.example.com`);
        }
      }
    });
  });

  it.each(REGIONS)('overlay %s sets its region, namespace and region label on every object', (region) => {
    for (const o of rendered[region]) {
      expect({ o: `${o.kind}/${o.metadata.name}`, ns: o.metadata.namespace, label: o.metadata.labels?.['veritrail.dev/region'] }).toEqual({
        o: `${o.kind}/${o.metadata.name}`,
        ns: 'veritrail',
        label: region,
      });
    }
    expect((find(rendered[region], 'ConfigMap', 'veritrail-config') as any).data.REGION).toBe(region);
  });
});

describe('the kustomize renderer used by these tests', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-kustomize-'));
    fs.writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  A: "1"\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const render = (kustomization: string) => {
    fs.writeFileSync(path.join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n' + kustomization);
    return renderKustomization(dir);
  };

  it('renders what it supports', () => {
    const [cm] = render('namespace: n\nlabels:\n  - pairs: {x: y}\npatches:\n  - target: {kind: ConfigMap, name: c}\n    patch: "[{op: replace, path: /data/A, value: \'2\'}]"\n');
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', labels: { x: 'y' } }, data: { A: '2' } });
  });

  it.each([
    ['a field it does not implement', 'commonLabels: {a: b}\n', /commonLabels is not supported/],
    ['a generator', 'configMapGenerator:\n  - name: g\n    literals: [A=1]\n', /configMapGenerator is not supported/],
    ['labels that rewrite selectors', 'labels:\n  - pairs: {a: b}\n    includeSelectors: true\n', /includeSelectors/],
    ['a strategic-merge patch', 'patches:\n  - path: p.yaml\n', /no target/],
    ['a patch of a field that is not there', 'patches:\n  - target: {kind: ConfigMap}\n    patch: "[{op: replace, path: /data/B, value: x}]"\n', /no such field/],
    ['a patch that matches nothing', 'patches:\n  - target: {kind: Secret}\n    patch: "[]"\n', /matches no resource/],
    ['an unknown image option', 'images:\n  - name: x\n    newTagg: "1"\n', /newTagg/],
  ])('refuses %s rather than dropping it', (_what, extra, message) => {
    expect(() => render(extra)).toThrow(KustomizeError);
    expect(() => render(extra)).toThrow(message);
  });
});
