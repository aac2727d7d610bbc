/**
 * A workload shaped like real admission and release policies (gatekeeper-library, ec-policies): a generated
 * megabyte input of Kubernetes objects, and a policy that spends its time where those policies do — sprintf
 * messages, regex.* on image references, units, comprehensions that join two large collections, and
 * json.match_schema, both per object and once over the whole megabyte document.
 *
 * `realworldFiles()` / `realworldInput(n)` / `REALWORLD_DATA` are used by compare.ts (paired runs of two engine
 * builds) and run.ts.
 */

/** mulberry32: small seeded PRNG (the input is the same on every run). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGISTRIES = ['registry.acme.io/', 'quay.io/acme/', 'docker.io/library/', 'ghcr.io/evil/', 'gcr.io/acme-prod/'];
const APPS = ['billing', 'checkout', 'search', 'identity', 'inventory', 'shipping', 'web', 'dashboard', 'gateway', 'mailer'];
const TEAMS = ['payments', 'core', 'growth', 'platform', 'infra'];
const MEM = ['64Mi', '128Mi', '256Mi', '512Mi', '1Gi', '2Gi', '3000M'];
const CPU = ['100m', '250m', '500m', '1', '2'];

/** `pods` pod objects (about 0.7 KiB each: 1500 pods is a little over 1 MiB of JSON) and a tenth as many services. */
export function realworldInput(pods = 1500): { objects: unknown[]; services: unknown[] } {
  const rnd = prng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const objects: unknown[] = [];
  for (let i = 0; i < pods; i++) {
    const app = pick(APPS);
    const n = 1 + Math.floor(rnd() * 3);
    const containers = [];
    for (let c = 0; c < n; c++) {
      const tag = rnd() < 0.1 ? 'latest' : rnd() < 0.05 ? '' : `v${1 + Math.floor(rnd() * 9)}.${Math.floor(rnd() * 20)}.${Math.floor(rnd() * 50)}`;
      const image = `${pick(REGISTRIES)}${app}-${c}${tag ? ':' + tag : ''}${rnd() < 0.3 ? '@sha256:' + Math.floor(rnd() * 1e15).toString(16).padStart(64, 'a') : ''}`;
      const ctr: Record<string, unknown> = {
        name: `${app}-${c}`,
        image,
        ports: [{ containerPort: 8000 + c, protocol: 'TCP' }],
        securityContext: { runAsNonRoot: rnd() < 0.8, allowPrivilegeEscalation: rnd() < 0.1, readOnlyRootFilesystem: rnd() < 0.6 },
        env: [{ name: 'LOG_LEVEL', value: pick(['debug', 'info', 'warn']) }, { name: 'REGION', value: pick(['eu-west-1', 'us-east-1']) }],
      };
      if (rnd() < 0.85) ctr.resources = { limits: { memory: pick(MEM), cpu: pick(CPU) }, requests: { memory: pick(MEM), cpu: pick(CPU) } };
      containers.push(ctr);
    }
    const labels: Record<string, string> = { app, 'app.kubernetes.io/name': app };
    if (rnd() < 0.9) labels.team = pick(TEAMS);
    if (rnd() < 0.8) labels['cost-center'] = `cc-${Math.floor(rnd() * 100)}`;
    objects.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${app}-${i}`,
        namespace: `ns-${i % 37}`,
        labels,
        annotations: { 'acme.io/owner': `${pick(TEAMS)}@acme.io`, 'acme.io/ticket': `REL-${1000 + Math.floor(rnd() * 9000)}` },
      },
      spec: { containers, serviceAccountName: rnd() < 0.2 ? 'default' : `${app}-sa`, hostNetwork: rnd() < 0.03 },
    });
  }
  const services: unknown[] = [];
  for (let s = 0; s < Math.ceil(pods / 10); s++) {
    const app = rnd() < 0.9 ? pick(APPS) : `ghost-${s}`;
    services.push({ metadata: { name: `svc-${s}`, namespace: `ns-${s % 37}` }, spec: { selector: { app }, ports: [{ port: 80 }] } });
  }
  return { objects, services };
}

export const REALWORLD_DATA = {
  params: {
    registries: ['registry.acme.io/', 'quay.io/acme/', 'gcr.io/acme-prod/'],
    required_labels: ['app', 'team', 'cost-center'],
    max_memory: '2Gi',
    pod_schema: {
      type: 'object',
      required: ['apiVersion', 'kind', 'metadata', 'spec'],
      properties: {
        kind: { enum: ['Pod'] },
        metadata: {
          type: 'object',
          required: ['name', 'namespace', 'labels'],
          properties: {
            name: { type: 'string', pattern: '^[a-z0-9-]+$', maxLength: 63 },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        spec: {
          type: 'object',
          properties: {
            containers: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['name', 'image', 'resources'],
                properties: { name: { type: 'string' }, image: { type: 'string', pattern: '^[a-z0-9./:@-]+$' }, resources: { $ref: '#/definitions/resources' } },
              },
            },
          },
        },
      },
      definitions: {
        resources: {
          type: 'object',
          required: ['limits'],
          properties: { limits: { type: 'object', required: ['memory', 'cpu'], properties: { memory: { type: 'string' }, cpu: { type: 'string' } } } },
        },
      },
    },
    input_schema: {
      type: 'object',
      required: ['objects'],
      properties: {
        objects: { type: 'array', items: { $ref: '#/definitions/pod' } },
        services: { type: 'array', items: { type: 'object', required: ['metadata', 'spec'] } },
      },
      definitions: {
        pod: {
          type: 'object',
          required: ['metadata', 'spec'],
          properties: {
            metadata: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
            spec: { type: 'object', properties: { containers: { type: 'array', items: { type: 'object', required: ['image'] } } } },
          },
        },
      },
    },
  },
};

const POLICY = `package realworld.admission

import rego.v1

containers(obj) := [c | some c in obj.spec.containers]

image_parts(img) := {"registry": r, "tag": t} if {
	m := regex.find_all_string_submatch_n(\`^((?:[a-z0-9.-]+\\.[a-z]+(?::[0-9]+)?/)?[a-z0-9./-]+?)(?::([A-Za-z0-9._-]+))?(?:@sha256:[a-f0-9]+)?$\`, img, 1)
	r := m[0][1]
	t := m[0][2]
}

allowed_registry(img) if {
	some prefix in data.params.registries
	startswith(img, prefix)
}

violation contains msg if {
	some obj in input.objects
	some c in containers(obj)
	not allowed_registry(c.image)
	msg := sprintf("%s/%s: container %q uses image %q from a registry that is not allowed (allowed: %v)", [obj.metadata.namespace, obj.metadata.name, c.name, c.image, data.params.registries])
}

violation contains msg if {
	some obj in input.objects
	some c in containers(obj)
	parts := image_parts(c.image)
	parts.tag in {"", "latest"}
	msg := sprintf("%s/%s: container %q image %q has no pinned tag", [obj.metadata.namespace, obj.metadata.name, c.name, c.image])
}

violation contains msg if {
	some obj in input.objects
	some c in containers(obj)
	units.parse_bytes(c.resources.limits.memory) > units.parse_bytes(data.params.max_memory)
	msg := sprintf("%s/%s: container %q memory limit %s is above %s", [obj.metadata.namespace, obj.metadata.name, c.name, c.resources.limits.memory, data.params.max_memory])
}

violation contains msg if {
	some obj in input.objects
	missing := {l | some l in data.params.required_labels; not obj.metadata.labels[l]}
	count(missing) > 0
	msg := sprintf("%s/%s is missing labels %v", [obj.metadata.namespace, obj.metadata.name, sort(missing)])
}

violation contains msg if {
	some obj in input.objects
	some c in containers(obj)
	c.securityContext.allowPrivilegeEscalation
	msg := sprintf("%s/%s: container %q allows privilege escalation", [obj.metadata.namespace, obj.metadata.name, c.name])
}

schema_errors contains msg if {
	some obj in input.objects
	[ok, errs] := json.match_schema(obj, data.params.pod_schema)
	not ok
	some e in errs
	msg := sprintf("%s: %s", [obj.metadata.name, e.error])
}

document_valid := json.match_schema(input, data.params.input_schema)[0]

orphan_services contains svc.metadata.name if {
	some svc in input.services
	backing := [p | some p in input.objects; p.metadata.labels.app == svc.spec.selector.app; p.metadata.namespace == svc.metadata.namespace]
	count(backing) == 0
}

owners[team] := pods if {
	some team in {t | some o in input.objects; t := o.metadata.labels.team}
	pods := count([o | some o in input.objects; o.metadata.labels.team == team])
}

tickets := {t | some o in input.objects; t := regex.replace(o.metadata.annotations["acme.io/ticket"], \`^REL-([0-9]+)$\`, "$1")}

summary := {
	"violations": count(violation),
	"schema_errors": count(schema_errors),
	"document_valid": document_valid,
	"orphan_services": count(orphan_services),
	"owners": owners,
	"tickets": count(tickets),
}
`;

export function realworldFiles(): Record<string, string> {
  return { 'realworld/admission.rego': POLICY };
}
