/** The kinds of resource that carry tags. */
export type ResourceKind = 'flow' | 'environment' | 'repo' | 'control';

/** Every spelling `{resource_type}` accepts (singular or plural; `env` too), case-sensitive, as the CLI sends them. */
export const RESOURCE_SPELLINGS: Readonly<Record<string, ResourceKind>> = {
  flow: 'flow',
  flows: 'flow',
  environment: 'environment',
  environments: 'environment',
  env: 'environment',
  repo: 'repo',
  repos: 'repo',
  control: 'control',
  controls: 'control',
};

/** The kind a `{resource_type}` names, or null. */
export function resourceKind(spelling: string): ResourceKind | null {
  return Object.prototype.hasOwnProperty.call(RESOURCE_SPELLINGS, spelling) ? RESOURCE_SPELLINGS[spelling] : null;
}

/** How a 404 names the resource: `Flow 'x' not found`. */
export const KIND_LABELS: Readonly<Record<ResourceKind, string>> = { flow: 'Flow', environment: 'Environment', repo: 'Repo', control: 'Control' };
