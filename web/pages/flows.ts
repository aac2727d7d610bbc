import { get } from '../api';
import { badge, h, link, section, table, time, value, show } from '../dom';
import { ui } from '../nav';
import type { Ctx } from './index';
import { Page, pageNumber, pager, queryForm, unixSeconds } from './common';

const enc = encodeURIComponent;

export async function overviewPage({ params, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`${org} overview`);
  const [flows, envs, trails, actions] = await Promise.all([
    get<any[]>(`/flows/${enc(org)}`),
    get<any[]>(`/environments/${enc(org)}`),
    get<Page<any>>(`/trails/${enc(org)}?per_page=20`),
    get<any[]>(`/actions/${enc(org)}`).catch(() => []),
  ]);
  const failingTrails = trails.data.filter((t) => t.is_compliant === false);
  const failingActions = (Array.isArray(actions) ? actions : []).filter((a) => a.is_failing);
  show(main, 
    h('h1', {}, `Overview of ${org}`),
    section(
      'Flows',
      table(
        ['Flow', 'Description', 'Trails'],
        flows.map((f) => [link(ui('o', org, 'flows', f.name), f.name), f.description ?? '', link(ui('o', org, 'flows', f.name), 'trails')]),
      ),
    ),
    section(
      'Environments',
      table(
        ['Environment', 'Type', 'Compliance', 'Last report'],
        envs.map((e) => [link(ui('o', org, 'environments', e.name), e.name), e.type ?? '', badge(e.state ?? e.is_compliant), time(e.last_reported_at)]),
      ),
    ),
    section(
      'Recent non-compliance',
      h('p', { class: 'muted' }, 'Among the 20 most recently changed trails.'),
      table(
        ['Trail', 'Flow', 'Status', 'Changed'],
        failingTrails.map((t) => [link(ui('o', org, 'flows', t.flow?.name ?? '', 'trails', t.name), t.name), t.flow?.name ?? '', badge(t.is_compliant), time(t.last_modified_at)]),
      ),
    ),
    section(
      'Failing notification deliveries',
      table(
        ['Action', 'Type', 'Last failure', 'Last success'],
        failingActions.map((a) => [a.name, a.type, time(a.last_failure_timestamp), time(a.last_success_timestamp)]),
      ),
    ),
  );
}

export async function flowsPage({ params, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Flows of ${org}`);
  const flows = await get<any[]>(`/flows/${enc(org)}`);
  show(main, 
    h('h1', {}, 'Flows'),
    table(
      ['Flow', 'Description', 'Tags'],
      flows.map((f) => [link(ui('o', org, 'flows', f.name), f.name), f.description ?? '', value(f.tags)]),
    ),
  );
}

export async function flowPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const { org, flow } = params;
  setTitle(`Flow ${flow}`);
  const page = pageNumber(query);
  const attPage = pageNumber(query, 'attestations_page');
  // The API filters a flow's attestations by time (Unix seconds); the page takes ISO 8601 or seconds in the URL.
  const from = unixSeconds(query.get('from'));
  const to = unixSeconds(query.get('to'));
  const badTime = [from, to].some((x) => x !== null && !Number.isFinite(x));
  const attQuery = new URLSearchParams({ page: String(attPage), per_page: '20' });
  if (from !== null && !badTime) attQuery.set('from_timestamp', String(from));
  if (to !== null && !badTime) attQuery.set('to_timestamp', String(to));
  const [info, trails, attestations] = await Promise.all([
    get<any>(`/flows/${enc(org)}/${enc(flow)}`),
    get<Page<any>>(`/trails/${enc(org)}/${enc(flow)}?page=${page}&per_page=20`),
    badTime ? Promise.resolve(null) : get<Page<any>>(`/attestations/${enc(org)}/${enc(flow)}?${attQuery}`).catch((error: Error) => error),
  ]);
  show(main, 
    h('h1', {}, `Flow ${flow}`),
    info.description ? h('p', {}, info.description) : null,
    section(
      'Trails',
      table(
        ['Trail', 'Compliance', 'Commit', 'Created', 'By'],
        trails.data.map((t) => [
          link(ui('o', org, 'flows', flow, 'trails', t.name), t.name),
          badge(t.is_compliant),
          t.git_commit_info?.sha1 ?? '',
          time(t.created_at),
          t.created_by ?? '',
        ]),
      ),
      pager(trails, page),
    ),
    section(
      'Attestations',
      queryForm(
        'Filter attestations',
        [
          { name: 'from', label: 'Reported from (ISO 8601 or Unix seconds)', value: query.get('from') ?? '', placeholder: '2026-01-01T00:00:00Z' },
          { name: 'to', label: 'Reported until', value: query.get('to') ?? '', placeholder: '2026-12-31T23:59:59Z' },
        ],
        'attestations-filter',
      ),
      badTime
        ? h('p', { class: 'error' }, 'A time must be ISO 8601 (2026-01-01T00:00:00Z) or Unix seconds.')
        : attestations instanceof Error || !attestations
          ? h('p', { class: 'error' }, String((attestations as Error | null)?.message ?? ''))
          : [
              table(
                ['Attestation', 'Type', 'Trail', 'Compliance', 'Reported'],
                attestations.data.map((a) => [
                  a.attestation_name ?? '',
                  a.attestation_type ?? '',
                  a.trail_name ? link(ui('o', org, 'flows', flow, 'trails', a.trail_name), a.trail_name) : '',
                  badge(a.is_compliant),
                  time(a.created_at),
                ]),
                'Attestations of this flow, newest first',
              ),
              pager(attestations, attPage, 'attestations_page', 'Attestation pages'),
            ],
    ),
    section('Template', info.template ? h('pre', { 'data-testid': 'flow-template' }, typeof info.template === 'string' ? info.template : JSON.stringify(info.template, null, 2)) : h('p', { class: 'empty' }, 'No template.')),
    section('Details', value(info)),
  );
}

/** Every trail of the org, newest first, filtered as the API filters them (flow, flow tag, artifact fingerprint). */
export async function trailsPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Trails of ${org}`);
  const page = pageNumber(query);
  const filters = new URLSearchParams({ page: String(page), per_page: '20' });
  for (const name of ['flow', 'flow_tag', 'fingerprint']) {
    const v = query.get(name);
    if (v) filters.set(name, v);
  }
  const trails = await get<Page<any>>(`/trails/${enc(org)}?${filters}`);
  show(
    main,
    h('h1', {}, 'Trails'),
    queryForm(
      'Filter',
      [
        { name: 'flow', label: 'Flow', value: query.get('flow') ?? '' },
        { name: 'flow_tag', label: 'Flow tag (key=value)', value: query.get('flow_tag') ?? '' },
        { name: 'fingerprint', label: 'Artifact fingerprint', value: query.get('fingerprint') ?? '' },
      ],
      'trails-filter',
    ),
    table(
      ['Trail', 'Flow', 'Compliance', 'Created'],
      trails.data.map((t) => [link(ui('o', org, 'flows', t.flow?.name ?? '', 'trails', t.name), t.name), t.flow?.name ?? '', badge(t.is_compliant), time(t.created_at)]),
    ),
    pager(trails, page),
  );
}
