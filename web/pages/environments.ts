import { get } from '../api';
import { badge, h, link, section, table, time, value, show } from '../dom';
import { navigate, ui, withQuery } from '../nav';
import type { Ctx } from './index';
import { pageNumber, pager, stepPager } from './common';

const enc = encodeURIComponent;

export async function environmentsPage({ params, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Environments of ${org}`);
  const envs = await get<any[]>(`/environments/${enc(org)}`);
  show(main, 
    h('h1', {}, 'Environments'),
    table(
      ['Environment', 'Type', 'Compliance', 'Description', 'Last report'],
      envs.map((e) => [link(ui('o', org, 'environments', e.name), e.name), e.type ?? '', badge(e.state ?? e.is_compliant), e.description ?? '', time(e.last_reported_at)]),
    ),
  );
}

function artifactRows(org: string, artifacts: any[]): HTMLElement {
  return table(
    ['Artifact', 'Fingerprint', 'Compliance', 'Reasons', 'Flows', 'Running since'],
    artifacts.map((a) => {
      const fp = a.fingerprint ?? a.sha256 ?? '';
      const flow = a.flows?.[0]?.flow_name;
      return [
        a.name ?? a.artifact_name ?? '',
        flow && fp ? link(ui('o', org, 'artifacts', flow, fp), fp) : fp,
        badge(a.compliance ?? a.is_compliant ?? a.artifact_compliance),
        value(a.reasons_for_incompliance ?? null),
        (a.flows ?? []).map((f: any) => f.flow_name).join(', '),
        time(a.creationTimestamp?.[0] ?? a.running_since ?? a.first_seen_at),
      ];
    }),
  );
}

export async function environmentPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const { org, env } = params;
  setTitle(`Environment ${env}`);
  const page = pageNumber(query);
  const [info, snapshots, events] = await Promise.all([
    get<any>(`/environments/${enc(org)}/${enc(env)}`),
    get<any>(`/snapshots/${enc(org)}/${enc(env)}?page=${page}&per_page=20`),
    get<any>(`/environments/${enc(org)}/${enc(env)}/events?per_page=20`).catch(() => []),
  ]);
  const snaps: any[] = Array.isArray(snapshots) ? snapshots : snapshots.data ?? [];
  const a = query.get('a') ?? '';
  const b = query.get('b') ?? '';
  const diffForm = h('form', { class: 'row', id: 'diff-form', 'aria-label': 'Compare two snapshots' });
  const aInput = h('input', { id: 'diff-a', name: 'a', value: a, placeholder: 'e.g. 1' });
  const bInput = h('input', { id: 'diff-b', name: 'b', value: b, placeholder: 'e.g. 2 or @' });
  diffForm.append(
    h('div', {}, h('label', { for: 'diff-a' }, 'From snapshot'), aInput),
    h('div', {}, h('label', { for: 'diff-b' }, 'To snapshot'), bInput),
    h('button', { type: 'submit' }, 'Compare'),
  );
  diffForm.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(withQuery({ a: aInput.value, b: bInput.value }));
  });
  let diff: HTMLElement | null = null;
  if (a && b) {
    const d = await get<any>(`/env-diff/${enc(org)}?snappish1=${enc(`${env}#${a}`)}&snappish2=${enc(`${env}#${b}`)}`);
    diff = h('div', { class: 'card', 'data-testid': 'diff' }, h('h3', {}, `Snapshot ${a} → ${b}`), value(d));
  }
  const policies = info.policies ?? info.attached_policies ?? [];
  const policyTexts = await Promise.all(
    (Array.isArray(policies) ? policies : []).map(async (p: any) => {
      const name = typeof p === 'string' ? p : p.name;
      try {
        const pol = await get<any>(`/policies/${enc(org)}/${enc(name)}`);
        const versions: any[] = pol.versions ?? [];
        return [name, versions.length ? String(versions[versions.length - 1].policy_yaml) : JSON.stringify(pol, null, 2)] as const;
      } catch (error) {
        return [name, `(could not read: ${(error as Error).message})`] as const;
      }
    }),
  );
  show(main, 
    h('h1', {}, `Environment ${env} `, badge(info.state ?? info.is_compliant)),
    info.description ? h('p', {}, info.description) : null,
    section(
      'Snapshot timeline',
      table(
        ['Snapshot', 'Reported', 'Compliance', 'Artifacts'],
        snaps.map((s) => {
          const n = String(s.index ?? s.snapshot_index ?? s.number);
          return [link(ui('o', org, 'environments', env, 'snapshots', n), `#${n}`), time(s.from ?? s.timestamp), badge(s.compliant ?? s.is_compliant), String(s.artifacts?.length ?? s.artifact_count ?? '')];
        }),
      ),
      // The snapshot list is a plain array (no total): previous and next by the page's length.
      Array.isArray(snapshots) ? stepPager(page, snaps.length, 20) : pager(snapshots, page),
    ),
    section('Compare two snapshots', diffForm, diff),
    section('Attached policies', policyTexts.length ? policyTexts.map(([name, text]) => h('div', {}, h('h3', {}, name), h('pre', { 'data-testid': 'policy-yaml' }, text))) : h('p', { class: 'empty' }, 'No policy attached.')),
    section(
      'Event log',
      table(
        ['Snapshot', 'When', 'Event', 'Artifact', 'Description'],
        (Array.isArray(events) ? events : events.data ?? []).map((e: any) => [String(e.snapshot_index ?? ''), time(e.reported_at), e.type ?? '', e.artifact_name ?? '', e.description ?? '']),
      ),
    ),
  );
}

export async function snapshotPage({ params, main, setTitle }: Ctx): Promise<void> {
  const { org, env, snapshot } = params;
  setTitle(`Snapshot ${snapshot} of ${env}`);
  const s = await get<any>(`/snapshots/${enc(org)}/${enc(env)}/${enc(snapshot)}`);
  show(main, 
    h('p', {}, link(ui('o', org, 'environments', env), `← Environment ${env}`)),
    h('h1', {}, `Snapshot #${s.index ?? snapshot} of ${env} `, badge(s.compliant ?? s.is_compliant)),
    h('p', {}, `Reported ${time(s.timestamp ?? s.created_at)}`),
    section('Artifacts', artifactRows(org, s.artifacts ?? [])),
  );
}
