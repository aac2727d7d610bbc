import { toAttestationResponse } from './attestation.response';
import { contentDisposition } from './evidence-download';
import { externalUrlsProblem, normaliseExternalUrls } from '../../../common/evidence/evidence-validators';
import { pageLinks } from '../../../common/pagination/page-envelope';
import { AttestationRow } from '../persistence/attestation.reader';

describe('external_urls', () => {
  it('accepts both forms and normalises to {href, fingerprint?}', () => {
    const value = { ci: 'https://ci/1', repo: { href: 'https://repo', fingerprint: 'a'.repeat(64) }, doc: { href: 'https://doc', fingerprint: null } };
    expect(externalUrlsProblem(value)).toBeNull();
    expect(normaliseExternalUrls(value)).toEqual({
      ci: { href: 'https://ci/1' },
      repo: { href: 'https://repo', fingerprint: 'a'.repeat(64) },
      doc: { href: 'https://doc' },
    });
  });

  it('names the first problem', () => {
    expect(externalUrlsProblem([])).toMatch(/must be an object/);
    expect(externalUrlsProblem({ 'a.b': 'x' })).toMatch(/label 'a.b'/);
    expect(externalUrlsProblem({ a: { url: 'x' } })).toBe("'a.url' is an unknown field");
    expect(externalUrlsProblem({ a: {} })).toBe("'a.href' must be a string");
    expect(externalUrlsProblem({ a: { href: 'x', fingerprint: 'ABC' } })).toBe("'a.fingerprint' must be 64 lowercase hex characters");
  });
});

describe('pageLinks', () => {
  const base = 'http://h/api/v2/attestations/o/f';
  it('links first, last, next and prev, keeping the filters', () => {
    const links = pageLinks(base, { from_timestamp: 10, to_timestamp: undefined }, 2, 20, 3);
    expect(links).toEqual({
      self: `${base}?from_timestamp=10&page=2&per_page=20`,
      first: `${base}?from_timestamp=10&page=1&per_page=20`,
      last: `${base}?from_timestamp=10&page=3&per_page=20`,
      next: `${base}?from_timestamp=10&page=3&per_page=20`,
      prev: `${base}?from_timestamp=10&page=1&per_page=20`,
    });
  });
  it('has no next on the last page, no prev on page 1, and last = 1 when empty', () => {
    expect(pageLinks(base, {}, 3, 20, 3).next).toBeNull();
    const empty = pageLinks(base, {}, 1, 20, 0);
    expect([empty.next, empty.prev, empty.last]).toEqual([null, null, `${base}?page=1&per_page=20`]);
    expect(pageLinks(base, {}, 9, 20, 3).prev).toBe(`${base}?page=3&per_page=20`);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('report.txt')).toBe(`attachment; filename="report.txt"; filename*=UTF-8''report.txt`);
    expect(contentDisposition('rapport é "1".txt')).toBe(
      `attachment; filename="rapport _ _1_.txt"; filename*=UTF-8''rapport%20%C3%A9%20%221%22.txt`,
    );
  });
});

describe('toAttestationResponse', () => {
  const row: AttestationRow = {
    id: '6f1c1d2e-0000-4000-8000-000000000001',
    org_name: 'acme',
    flow_name: 'web',
    trail_name: 'main-1',
    flow_seq: '7',
    moment_number: 3,
    name: 'unit-test',
    artifact_name: 'web',
    artifact_fingerprint: null,
    attestation_type: 'generic',
    schema_version: 1,
    is_compliant: true,
    description: '',
    origin_url: null,
    external_urls: null,
    annotations: null,
    user_data: null,
    git_commit_info: null,
    repo_info: null,
    data: { target_artifacts: ['web'], attestation_id: 'spoofed' },
    evidence_sha256: 'ab'.repeat(32),
    evidence_filename: 'r.txt',
    evidence_size: '12',
    evidence_content_type: 'text/plain',
    reported_by: 'ci@acme.example',
    created_at: 1763770000.123456,
  };
  it('maps a row to the wire shape; common fields win over type data', () => {
    const res = toAttestationResponse(row, 'https://vt.example');
    expect(res).toMatchObject({
      attestation_id: row.id,
      attestation_number: 7,
      created_at: 1763770000.123456,
      origin_url: '',
      user_data: {},
      external_urls: {},
      annotations: {},
      has_audit_package: true,
      target_artifacts: ['web'],
      html_url: `https://vt.example/acme/flows/web/trails/main-1?attestation_id=${row.id}`,
      evidence: {
        sha256: 'ab'.repeat(32),
        filename: 'r.txt',
        size: 12,
        content_type: 'text/plain',
        download_url: `https://vt.example/api/v2/attestations/acme/web/trail/main-1/attestation/${row.id}/evidence`,
      },
    });
    expect(toAttestationResponse({ ...row, evidence_sha256: null }, 'x').has_audit_package).toBe(false);
  });
});
