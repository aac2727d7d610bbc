import { get } from '../api';
import { badge, Child, h, link, section, table, time, value, show } from '../dom';
import { navigate, ui, withQuery } from '../nav';
import type { Ctx } from './index';
import { download } from './common';

const enc = encodeURIComponent;

/** Fields every attestation has; anything else at the top level is its type's own data (test counts, findings, PRs). */
const COMMON = new Set([
  'attestation_id', 'attestation_name', 'attestation_type', 'created_at', 'description', 'has_audit_package', 'html_url', 'is_compliant',
  'origin_url', 'reported_by', 'schema_version', 'user_data', 'flow_name', 'trail_name', 'artifact_name', 'artifact_fingerprint',
  'attestation_number', 'moment_number', 'external_urls', 'annotations', 'git_commit_info', 'repo_info', 'evidence',
]);

export function typedSummary(a: Record<string, unknown>): Child {
  const own = Object.entries(a).filter(([k]) => !COMMON.has(k));
  if (!own.length) return null;
  return h('div', { class: 'typed' }, h('h4', {}, `${a.attestation_type} data`), value(Object.fromEntries(own)));
}

interface Slot {
  attestation_name: string;
  attestation_type: string | null;
  attestation_id: string | null;
  overridden_attestation_id: string | null;
  status: string;
  is_compliant: boolean | null;
  unexpected: boolean;
}

/** Why a slot counts as it does, in words. */
function why(s: Slot): string {
  if (s.status === 'MISSING') return 'missing: the template requires it and nothing was reported';
  if (s.overridden_attestation_id) return `overridden (replaces ${s.overridden_attestation_id})`;
  if (s.unexpected) return 'not in the template';
  return s.is_compliant ? 'reported, compliant' : 'reported, failing';
}

function slotRows(slots: Slot[], where: string): Child[][] {
  return slots.map((s) => [where, s.attestation_name, s.attestation_type ?? '', badge(s.is_compliant), why(s)]);
}

export async function trailPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const { org, flow, trail } = params;
  setTitle(`Trail ${trail}`);
  const asOf = query.get('as_of') ?? '';
  const t = await get<any>(`/trails/${enc(org)}/${enc(flow)}/${enc(trail)}`);
  const cs = t.compliance_status ?? {};
  const slots: Array<[string, Slot]> = [
    ...(cs.attestations_statuses ?? []).map((s: Slot) => ['trail', s] as [string, Slot]),
    ...Object.entries(cs.artifacts_statuses ?? {}).flatMap(([name, a]: [string, any]) => (a.attestations_statuses ?? []).map((s: Slot) => [`artifact ${name}`, s] as [string, Slot])),
  ];
  const ids = [...new Set(slots.map(([, s]) => s.attestation_id).filter((x): x is string => !!x))];
  const attestations = (
    await Promise.all(ids.map((id) => get<any>(`/attestations/${enc(org)}?attestation_id=${enc(id)}`).then((r) => (Array.isArray(r) ? r : r.data ?? [r])).catch(() => [])))
  ).flat();
  attestations.sort((a, b) => (a.created_at ?? 0) - (b.created_at ?? 0));

  const asOfForm = h('form', { class: 'row', id: 'as-of-form', 'aria-label': 'Trail as of a moment' });
  const asOfInput = h('input', { id: 'as-of', name: 'as_of', value: asOf, placeholder: '3, ~1, latest, @{2026-01-01T00:00:00Z}, @{1.hour.ago}' });
  asOfForm.append(
    h('div', {}, h('label', { for: 'as-of' }, 'As of (moment number, ~N behind the latest, or @{time})'), asOfInput),
    h('button', { type: 'submit' }, 'Show'),
  );
  asOfForm.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(withQuery({ as_of: asOfInput.value }));
  });

  let moment: Child = null;
  if (asOf) {
    const m = await get<any>(`/trails/${enc(org)}/${enc(flow)}/${enc(trail)}/moments/${enc(asOf)}`);
    moment = h(
      'div',
      { class: 'card', 'data-testid': 'moment' },
      h('h3', {}, `As of moment ${m.moment_number} (${time(m.created_at)})`),
      table(
        ['Slot', 'Status', 'Compliance'],
        Object.entries(m.compliance_status ?? {}).map(([name, s]: [string, any]) => [name, s.status, badge(s.is_compliant)]),
      ),
    );
  }

  show(main, 
    h('p', {}, link(ui('o', org, 'flows', flow), `← Flow ${flow}`)),
    h('h1', {}, `Trail ${trail} `, badge(t.is_compliant)),
    t.description ? h('p', {}, t.description) : null,
    section(
      'Audit package',
      h('p', {}, "The trail's records, evidence, signed decisions and log proofs in one file, checkable offline."),
      h(
        'ul',
        { class: 'plain' },
        h('li', {}, download(`/api/v2/trails/${enc(org)}/${enc(flow)}/${enc(trail)}/audit_package`, 'Download the audit package (.tar.gz)', 'audit-package')),
        h('li', {}, download(`/api/v2/trails/${enc(org)}/${enc(flow)}/${enc(trail)}/audit_pdf`, 'Download the audit report (PDF)', 'audit-pdf')),
      ),
    ),
    section('Compliance and why', h('p', {}, `Status: ${cs.status ?? t.compliance_state ?? ''}`), table(['Where', 'Slot', 'Type', 'Compliance', 'Why'], slots.flatMap(([w, s]) => slotRows([s], w)))),
    section('As of a moment', asOfForm, moment),
    section(
      'Artifacts',
      table(
        ['Artifact', 'Fingerprint', 'Compliance'],
        Object.entries(cs.artifacts_statuses ?? {}).map(([name, a]: [string, any]) => [
          name,
          a.artifact_fingerprint ? link(ui('o', org, 'artifacts', flow, a.artifact_fingerprint), a.artifact_fingerprint) : h('span', { class: 'muted' }, 'not reported'),
          badge(a.is_compliant),
        ]),
      ),
    ),
    section(
      'Attestation timeline',
      attestations.length
        ? h(
            'ol',
            { class: 'timeline', 'data-testid': 'timeline' },
            attestations.map((a) =>
              h(
                'li',
                { id: `att-${a.attestation_id}` },
                h('h3', {}, `${a.attestation_name} `, badge(a.is_compliant)),
                h('p', { class: 'muted' }, `${a.attestation_type} · ${time(a.created_at)} · by ${a.reported_by ?? ''} · moment ${a.moment_number ?? ''}`),
                a.description ? h('p', {}, a.description) : null,
                typedSummary(a),
                a.annotations && Object.keys(a.annotations).length ? h('div', {}, h('h4', {}, 'Annotations'), value(a.annotations)) : null,
                a.user_data && Object.keys(a.user_data).length ? h('div', {}, h('h4', {}, 'User data'), value(a.user_data)) : null,
                a.evidence
                  ? h(
                      'p',
                      {},
                      h(
                        'a',
                        { href: `/api/v2/attestations/${enc(org)}/${enc(flow)}/trail/${enc(trail)}/attestation/${enc(a.attestation_id)}/evidence`, download: a.evidence.filename, 'data-testid': 'evidence-download' },
                        `Download evidence: ${a.evidence.filename} (${a.evidence.size} bytes, sha256 ${a.evidence.sha256})`,
                      ),
                    )
                  : null,
                h('p', {}, link(`${ui('o', org, 'log')}?kind=attestation&id=${enc(a.attestation_id)}`, 'Verify in the evidence log')),
              ),
            ),
          )
        : h('p', { class: 'empty' }, 'No attestations yet.'),
    ),
    section('Template', t.template?.content ? h('pre', { 'data-testid': 'trail-template' }, t.template.content) : h('p', { class: 'empty' }, 'No template.')),
    section('Details', value({ git_commit_info: t.git_commit_info, origin_url: t.origin_url, user_data: t.user_data, created_by: t.created_by, created_at: time(t.created_at), last_moment: t.last_moment })),
  );
}
