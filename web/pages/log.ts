import canonicalize from 'canonicalize';
import { ApiError, get, text } from '../api';
import { h, link, section, table, show } from '../dom';
import { ui, withQuery } from '../nav';
import { sha256, toHex, verifyEntry, Verdict } from '../verify';
import type { Ctx } from './index';
import { download } from './common';

const enc = encodeURIComponent;
const PIN = 'veritrail.pinned-log-key';
const PER_PAGE = 20;

function verdictView(v: Verdict): HTMLElement {
  return h(
    'div',
    { class: 'card', 'data-testid': 'verdict' },
    h('p', { class: v.ok ? 'verdict ok' : 'verdict bad' }, v.ok ? 'Verified in this browser' : 'Verification FAILED'),
    h('ul', { class: 'steps' }, v.steps.map((s) => h('li', { class: s.ok ? 'ok' : 'bad' }, s.label, s.detail ? ` — ${s.detail}` : ''))),
  );
}

/**
 * Checks one entry: the latest checkpoint, its signature by the pinned key, the inclusion proof from the server,
 * and, for an attestation, that the record the API serves today still hashes to the digest the leaf holds.
 */
async function verify(org: string, entry: { index: number; leaf: string }, out: HTMLElement): Promise<void> {
  const vkey = localStorage.getItem(PIN) ?? '';
  if (!vkey) {
    show(out, h('p', { class: 'error' }, 'Pin the log key first (above).'));
    return;
  }
  show(out, 'Verifying…');
  try {
    const note = await text(`/log/${enc(org)}/checkpoint`);
    const size = Number(note.split('\n')[1]);
    if (!(entry.index < size)) {
      show(out, h('p', { class: 'error' }, `The latest checkpoint (size ${size}) does not cover entry ${entry.index} yet; try again in a moment.`));
      return;
    }
    const proof = await get<any>(`/log/${enc(org)}/proof/inclusion?index=${entry.index}&tree_size=${size}`);
    const verdict = await verifyEntry({ leaf: entry.leaf, index: entry.index, proof, checkpointNote: note, vkey });
    const leaf = JSON.parse(entry.leaf);
    if (leaf.kind === 'attestation' && typeof leaf.record_sha256 === 'string') {
      const r = await get<any>(`/attestations/${enc(org)}?attestation_id=${enc(leaf.id)}`);
      const record = Array.isArray(r) ? r[0] : r.data?.[0] ?? r;
      const digest = toHex(await sha256(new TextEncoder().encode(canonicalize(record) ?? '')));
      const same = digest === leaf.record_sha256;
      verdict.steps.push({ label: 'the record as served today matches the logged digest', ok: same, detail: digest });
      verdict.ok = verdict.ok && same;
    }
    show(out, verdictView(verdict));
  } catch (error) {
    show(out, h('p', { class: 'error' }, error instanceof ApiError ? `${error.status}: ${error.message}` : String(error)));
  }
}

function pinForm(): HTMLElement {
  const current = localStorage.getItem(PIN) ?? '';
  const area = h('textarea', { id: 'pinned-key', name: 'vkey', spellcheck: 'false' }, current);
  const status = h('p', { role: 'status', id: 'pin-status' }, current ? 'A key is pinned in this browser.' : 'No key pinned.');
  const save = h('button', { type: 'button', id: 'pin-save' }, 'Pin this key');
  save.addEventListener('click', () => {
    localStorage.setItem(PIN, area.value.trim());
    status.textContent = 'Pinned.';
  });
  const fetchKeys = h('button', { type: 'button', class: 'secondary', id: 'pin-from-server' }, "Show the server's keys");
  const keys = h('div', {});
  fetchKeys.addEventListener('click', async () => {
    const k = await get<any>('/log/keys');
    show(keys, 
      h('p', { class: 'muted' }, 'Compare with the key you got from your operator out of band before pinning one of these: pinning what the server says makes the check rest on its word.'),
      h('ul', {}, (k.keys ?? []).map((x: any) => h('li', {}, h('code', {}, x.vkey), x.active ? ' (active)' : ' (inactive)'))),
    );
  });
  return h(
    'div',
    { class: 'card' },
    h('label', { for: 'pinned-key' }, 'Pinned log key (verifier key: name+keyid+base64)'),
    area,
    h('div', { class: 'row' }, save, fetchKeys),
    status,
    keys,
  );
}

function parseLeaf(text: string): Record<string, any> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** The audit package of the trail a record belongs to (its records, evidence and these proofs, for offline checks). */
function packageLink(org: string, leaf: Record<string, any>, testId: string): HTMLElement | null {
  if (typeof leaf.flow !== 'string') return null;
  if (typeof leaf.trail === 'string') {
    return h('p', {}, download(`/api/v2/trails/${enc(org)}/${enc(leaf.flow)}/${enc(leaf.trail)}/audit_package`, `Audit package of trail ${leaf.flow}/${leaf.trail}`, testId));
  }
  if (typeof leaf.fingerprint === 'string') {
    const fp = leaf.fingerprint;
    return h('p', {}, download(`/api/v2/artifacts/${enc(org)}/${enc(leaf.flow)}/${enc(fp)}/audit_package`, `Audit package of artifact ${fp.slice(0, 12)}`, testId));
  }
  return null;
}

export async function logPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  setTitle(`Evidence log of ${org}`);
  const note = await text(`/log/${enc(org)}/checkpoint`);
  const size = Number(note.split('\n')[1]);
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const end = Math.max(0, size - (page - 1) * PER_PAGE);
  const start = Math.max(0, end - PER_PAGE);
  const kind = query.get('kind');
  const id = query.get('id');

  let lookup: HTMLElement | null = null;
  if (kind && id) {
    const entry = await get<any>(`/log/${enc(org)}/lookup?kind=${enc(kind)}&id=${enc(id)}`);
    const out = h('div', { id: 'lookup-verdict' });
    const button = h('button', { type: 'button', id: 'verify-record' }, 'Verify');
    button.addEventListener('click', () => {
      if (entry.index === null) {
        show(out, h('p', { class: 'error' }, 'Not integrated into the log yet; try again in a moment.'));
        return;
      }
      void verify(org, entry, out);
    });
    lookup = section(
      `Record ${kind} ${id}`,
      h('p', {}, entry.index === null ? 'Not integrated yet.' : `Entry ${entry.index}`),
      h('pre', {}, entry.leaf),
      button,
      out,
      packageLink(org, parseLeaf(entry.leaf), 'lookup-audit-package'),
    );
  }

  const entries = end > start ? await get<any>(`/log/${enc(org)}/entries?start=${start}&limit=${end - start}`) : { entries: [] };
  const rows = [...(entries.entries ?? [])].reverse().map((e: any) => {
    const out = h('div', {});
    const leaf = parseLeaf(e.leaf);
    const button = h('button', { type: 'button', class: 'secondary', 'aria-label': `Verify entry ${e.index}`, 'data-index': String(e.index) }, 'Verify');
    button.addEventListener('click', () => void verify(org, e, out));
    return [
      String(e.index),
      leaf.kind ?? '',
      leaf.id ?? '',
      h('div', {}, [leaf.flow, leaf.trail, leaf.environment].filter(Boolean).join(' / '), packageLink(org, leaf, 'entry-audit-package')),
      leaf.recorded_at ?? '',
      h('div', {}, button, out),
    ];
  });
  show(main, 
    h('h1', {}, 'Evidence log'),
    section('Latest checkpoint', h('pre', { 'data-testid': 'checkpoint' }, note)),
    section('Pinned key', pinForm()),
    lookup,
    section(
      'Entries',
      table(['Index', 'Kind', 'Record', 'Where', 'Recorded', 'Check'], rows),
      h(
        'nav',
        { class: 'pager', 'aria-label': 'Pages' },
        page > 1 ? link(withQuery({ page: page - 1 }), '← Newer') : null,
        h('span', {}, `Entries ${start}–${Math.max(start, end - 1)} of ${size}`),
        start > 0 ? link(withQuery({ page: page + 1 }), 'Older →') : null,
      ),
    ),
    h('p', {}, link(ui('o', org), '← Overview')),
  );
}
