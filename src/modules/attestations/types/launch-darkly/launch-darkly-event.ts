import { ValidationError } from '../../../../common/errors/app-error';

/** The typed fields of a `launch_darkly` attestation: one flag change as LaunchDarkly's audit log tells it. */
export interface LaunchDarklyChange {
  /** The flag's key. */
  flag: string;
  /** Its display name, when the event gives one. */
  flag_name: string | null;
  project: string | null;
  /** The environment the change applies to; null for a change to the flag itself (all environments). */
  environment: string | null;
  /** The kind of change: LaunchDarkly's actions (`updateOn`, `updateRules`, `createFlag`...), in order. */
  actions: string[];
  /** LaunchDarkly's own words for it (`turned on the flag`). */
  title: string | null;
  /** Who: the member's e-mail, else the API token's name. */
  changed_by: string | null;
  /** When, ISO 8601 (the event's `date`). */
  changed_at: string | null;
  /** The flag in LaunchDarkly's app. */
  url: string | null;
  /** The audit log entry's id (`GET /api/v2/auditlog/{id}` at LaunchDarkly has the full change). */
  event_id: string | null;
  comment: string | null;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** `proj/default:env/production:flag/new-checkout` -> {proj, env, flag}; `env/*` is "every environment". */
export function parseResource(resource: string): { project: string | null; environment: string | null; flag: string | null } {
  const parts: Record<string, string> = {};
  for (const segment of resource.split(':')) {
    const slash = segment.indexOf('/');
    if (slash > 0) parts[segment.slice(0, slash)] = segment.slice(slash + 1).replace(/;.*$/, '');
  }
  const env = parts.env && parts.env !== '*' ? parts.env : null;
  return { project: parts.proj ?? null, environment: env, flag: parts.flag ?? null };
}

/**
 * The flag change a LaunchDarkly webhook payload (an audit log entry) describes, or null for an event that is
 * not about a flag (a member invited, a project renamed): those are acknowledged and not recorded. A flag
 * event without a flag resource is a 400.
 */
export function launchDarklyChange(payload: Record<string, unknown>, appUrl: string): LaunchDarklyChange | null {
  if (payload.kind !== 'flag') return null;
  const accesses = Array.isArray(payload.accesses) ? payload.accesses.map(obj) : [];
  const resources = [
    ...accesses.map((a) => str(a.resource)),
    ...(Array.isArray(obj(payload.target).resources) ? (obj(payload.target).resources as unknown[]).map(str) : []),
  ].filter((r): r is string => r !== null);
  const parsed = resources.map(parseResource).find((r) => r.flag);
  if (!parsed?.flag) throw new ValidationError({ accesses: 'a flag event must name its flag in accesses[].resource (proj/<project>:env/<env>:flag/<key>)' });

  const member = obj(payload.member);
  const token = obj(payload.token);
  const date = typeof payload.date === 'number' && Number.isFinite(payload.date) ? new Date(payload.date) : null;
  const site = str(obj(obj(payload._links).site).href);
  return {
    flag: parsed.flag,
    flag_name: str(obj(payload.target).name) ?? str(payload.name),
    project: parsed.project,
    environment: parsed.environment,
    actions: [...new Set(accesses.map((a) => str(a.action)).filter((a): a is string => a !== null))],
    title: str(payload.titleVerb) ?? str(payload.title),
    changed_by: str(member.email) ?? str(token.name),
    changed_at: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
    url: site ? (/^https?:\/\//.test(site) ? site : `${appUrl.replace(/\/+$/, '')}${site.startsWith('/') ? '' : '/'}${site}`) : null,
    event_id: str(payload._id),
    comment: str(payload.comment),
  };
}

/** Characters a trail or attestation name cannot hold become `-`. */
const clean = (value: string, allowed: RegExp) => value.replace(allowed, '-');

/** The hook's trail name template filled for one change: `{flag}`, `{environment}`, `{project}`. */
export function trailNameFor(template: string, change: LaunchDarklyChange): string {
  const filled = template
    .replace(/\{flag\}/g, change.flag)
    .replace(/\{environment\}/g, change.environment ?? 'all-environments')
    .replace(/\{project\}/g, change.project ?? 'default');
  return clean(filled, /[^a-zA-Z0-9\-_.~]/g).replace(/^[^a-zA-Z0-9]+/, '');
}

/** The slot a change fills: the flag's key, with characters an attestation name cannot hold as `-`. */
export function attestationNameFor(change: LaunchDarklyChange): string {
  return clean(change.flag, /[^a-zA-Z0-9\-_,]/g);
}
