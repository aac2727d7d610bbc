import { ApiError, get, post } from '../api';
import { badge, type Child, h, link, section, table, time, value, show } from '../dom';
import { ui } from '../nav';
import type { Ctx } from './index';
import { pageNumber, pager, queryForm } from './common';

const enc = encodeURIComponent;

export async function controlsPage({ params, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Controls of ${org}`);
  const controls = await get<any>(`/controls/${enc(org)}`);
  const list: any[] = Array.isArray(controls) ? controls : controls.controls ?? controls.data ?? [];
  // Per control: where it is enforced (the coverage route) and its latest decisions (evaluations filtered by it).
  const details = await Promise.all(
    list.map((c) =>
      Promise.all([
        get<any>(`/controls/${enc(org)}/${enc(c.identifier)}/coverage?per_page=100`).catch((error: Error) => error),
        get<any>(`/evaluations/${enc(org)}?control=${enc(c.identifier)}&per_page=20`).catch((error: Error) => error),
      ]),
    ),
  );
  show(
    main,
    h('h1', {}, 'Controls and decisions'),
    list.length
      ? list.map((c, i) => {
          const [coverage, decided] = details[i];
          return section(
            `${c.identifier}: ${c.name ?? ''}`,
            c.description ? h('p', {}, c.description) : null,
            h('p', { class: 'muted' }, `Version ${c.version ?? ''}${c.archived ? ' · archived' : ''}`),
            h('h3', {}, 'Coverage'),
            coverageView(org, coverage),
            h('h3', {}, 'Latest decisions'),
            decided instanceof Error
              ? h('p', { class: 'error' }, decided.message)
              : [
                  table(
                    ['Evaluation', 'When', 'Answer', 'Trails covered'],
                    (decided.data ?? []).map((e: any) => [
                      link(ui('o', org, 'evaluations', e.id), e.id),
                      time(e.requested_at),
                      badge(e.result?.allow, ['allowed', 'denied']),
                      (e.verification?.trails ?? []).map((x: any) => `${x.flow_name}/${x.trail_name}@${x.moment_number}`).join(', '),
                    ]),
                  ),
                  decided.pagination && decided.pagination.total > (decided.data ?? []).length
                    ? h('p', { class: 'muted' }, `${decided.pagination.total} decisions in all; `, link(`${ui('o', org, 'evaluations')}?control=${enc(c.identifier)}`, 'all of them'))
                    : null,
                ],
            h('h3', {}, 'Policies that reference it'),
            value(c.policies_referencing ?? []),
          );
        })
      : h('p', { class: 'empty' }, 'No controls.'),
    h('p', {}, link(ui('o', org, 'evaluations'), 'All evaluations →')),
  );
}

/** How far a control is enforced: the environments whose attached policies require a decision for it. */
function coverageView(org: string, c: any): Child {
  if (c instanceof Error) return h('p', { class: 'error' }, c.message);
  return [
    h('p', { 'data-testid': 'control-coverage' }, `${c.covered} of ${c.total} environments enforce it (${c.coverage_percent}%)`),
    table(
      ['Environment', 'Type', 'Enforced', 'By policies'],
      (c.environments ?? []).map((e: any) => [link(ui('o', org, 'environments', e.environment_name), e.environment_name), e.environment_type, badge(e.covered, ['yes', 'no']), (e.policies ?? []).join(', ')]),
    ),
    c.total_count > (c.environments ?? []).length ? h('p', { class: 'muted' }, `First ${(c.environments ?? []).length} of ${c.total_count} environments.`) : null,
  ];
}

export async function evaluationsPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Evaluations of ${org}`);
  const page = pageNumber(query);
  const filters = new URLSearchParams({ page: String(page), per_page: '20' });
  for (const name of ['control', 'status']) {
    const v = query.get(name);
    if (v) filters.set(name, v);
  }
  const res = await get<any>(`/evaluations/${enc(org)}?${filters}`);
  const rows: any[] = Array.isArray(res) ? res : res.data ?? [];
  show(main,
    h('h1', {}, 'Evaluations'),
    queryForm(
      'Filter',
      [
        { name: 'control', label: 'Control', value: query.get('control') ?? '' },
        { name: 'status', label: 'Status (pending, completed, failed)', value: query.get('status') ?? '' },
      ],
      'evaluations-filter',
    ),
    table(
      ['Evaluation', 'When', 'Allowed', 'Status', 'Control'],
      rows.map((e) => [link(ui('o', org, 'evaluations', e.id), e.id), time(e.requested_at), badge(e.result?.allow, ['allowed', 'denied']), e.status ?? '', e.control ?? '']),
    ),
    Array.isArray(res) ? null : pager(res, page),
  );
}

export async function evaluationPage({ params, main, setTitle }: Ctx): Promise<void> {
  const { org, id } = params;
  setTitle(`Evaluation ${id}`);
  const [e, policy] = await Promise.all([
    get<any>(`/evaluations/${enc(org)}/${enc(id)}`),
    get<any>(`/evaluations/${enc(org)}/${enc(id)}/policy`).catch((error) => error as Error),
  ]);
  const out = h('div', { role: 'status', 'aria-live': 'polite', id: 'replay-result' });
  const button = h('button', { type: 'button', id: 'replay' }, 'Replay');
  button.addEventListener('click', async () => {
    button.setAttribute('disabled', '');
    show(out, 'Replaying…');
    try {
      const r = await post<any>(`/evaluations/${enc(org)}/${enc(id)}/replay`);
      const same = r.identical ?? r.is_identical ?? r.same;
      show(out, 
        h('p', { class: same ? 'verdict ok' : 'verdict bad', 'data-testid': 'replay-verdict' }, same ? 'Replay identical' : 'Replay differs'),
        value(r),
      );
    } catch (error) {
      show(out, h('p', { class: 'error' }, error instanceof ApiError ? `${error.status}: ${error.message}` : String(error)));
    } finally {
      button.removeAttribute('disabled');
    }
  });
  show(main, 
    h('p', {}, link(ui('o', org, 'evaluations'), '← Evaluations')),
    h('h1', {}, `Evaluation ${id} `, badge(e.result?.allow, ['allowed', 'denied'])),
    e.result?.violations?.length ? section('Violations', value(e.result.violations)) : null,
    e.control ? h('p', {}, `Control: ${e.control}`) : null,
    section(
      'Digests',
      value({
        'policy files': e.verification?.policy_digest,
        input: e.verification?.input_digest,
        result: e.verification?.result_digest,
        engine: `${e.verification?.engine ?? ''} ${e.verification?.engine_version ?? ''}`,
        trails: (e.verification?.trails ?? []).map((x: any) => `${x.flow_name}/${x.trail_name}@${x.moment_number}`),
      }),
    ),
    section('Replay', h('p', {}, 'Runs the stored policy files on the stored input again and says whether the result is identical.'), button, out),
    section('Policy files', policyFiles(policy)),
    section('Evaluation', value(e)),
  );
}

/** The bundle as stored, each file as text (never markup) with its sha256, so a reader can compare it with theirs. */
function policyFiles(policy: any): Child {
  if (policy instanceof Error) {
    return h('p', { class: 'error' }, policy instanceof ApiError ? `${policy.status}: ${policy.message}` : String(policy));
  }
  const files: Record<string, string> = policy.files ?? {};
  const digests: Record<string, string> = policy.file_digests ?? {};
  return [
    h('p', { class: 'muted' }, `Bundle digest ${policy.digest}`),
    Object.keys(files)
      .sort()
      .map((name) =>
        h(
          'div',
          { class: 'policy-file' },
          h('h3', {}, name),
          h('p', { class: 'muted' }, `sha256 ${digests[name] ?? ''}`),
          h('pre', { tabindex: 0, 'aria-label': `Policy file ${name}`, 'data-testid': 'policy-file' }, String(files[name])),
        ),
      ),
  ];
}
