import { VeritrailApi } from './api-client';

/** A resource template: a `veritrail://` URI pattern and the API route it reads whole. */
export interface ResourceTemplate {
  name: string;
  title: string;
  uriTemplate: string;
  description: string;
  /** The URI's variables, in order, as they appear in the pattern. */
  variables: string[];
  /** The API path segments for the variables (`org` is the server's own). */
  path(api: VeritrailApi, vars: Record<string, string>): string;
}

export const SCHEME = 'veritrail';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    name: 'trail',
    title: 'A trail',
    uriTemplate: 'veritrail://{org}/trails/{flow}/{trail}',
    description: 'A trail with its compliance status, slots and events, as GET /api/v2/trails/{org}/{flow}/{trail} answers',
    variables: ['org', 'flow', 'trail'],
    path: (api, v) => api.path(['trails', v.org, v.flow, v.trail]),
  },
  {
    name: 'artifact',
    title: 'An artifact',
    uriTemplate: 'veritrail://{org}/artifacts/{flow}/{fingerprint}',
    description: "An artifact's latest report in a flow, with its trail's state, evidence and where it runs",
    variables: ['org', 'flow', 'fingerprint'],
    path: (api, v) => api.path(['artifacts', v.org, v.flow, 'fingerprint', v.fingerprint]),
  },
  {
    name: 'snapshot',
    title: "An environment's snapshot",
    uriTemplate: 'veritrail://{org}/snapshots/{environment}/{snapshot}',
    description: "One snapshot of an environment ('latest', a number, '~N' or '@time'): every artifact that ran, its compliance and policy decisions",
    variables: ['org', 'environment', 'snapshot'],
    path: (api, v) => api.path(['snapshots', v.org, v.environment, v.snapshot]),
  },
  {
    name: 'policy',
    title: 'An environment policy',
    uriTemplate: 'veritrail://{org}/policies/{policy}',
    description: 'An environment policy with every version of its YAML and the environments that use it',
    variables: ['org', 'policy'],
    path: (api, v) => api.path(['policies', v.org, v.policy]),
  },
];

/** The template a URI matches and its variables (decoded), or null. */
const DOT_SEGMENT = /^\.\.?$/;

export function matchResource(uri: string): { template: ResourceTemplate; vars: Record<string, string> } | null {
  const prefix = `${SCHEME}://`;
  if (!uri.startsWith(prefix)) return null;
  const parts = uri.slice(prefix.length).split('/');
  for (const template of RESOURCE_TEMPLATES) {
    const pattern = template.uriTemplate.slice(prefix.length).split('/');
    if (pattern.length !== parts.length) continue;
    const vars: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const variable = /^\{(\w+)\}$/.exec(pattern[i]);
      if (variable) {
        try {
          vars[variable[1]] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
        // '.' and '..' are no names: a URL would collapse them and climb to another path (another org's).
        ok = ok && vars[variable[1]] !== '' && !DOT_SEGMENT.test(vars[variable[1]]);
      } else {
        ok = pattern[i] === parts[i];
      }
    }
    if (ok) return { template, vars };
  }
  return null;
}

/** The URI of a record (each variable encoded). */
export function resourceUri(template: ResourceTemplate, vars: Record<string, string>): string {
  return template.uriTemplate.replace(/\{(\w+)\}/g, (_, v: string) => encodeURIComponent(vars[v]));
}
