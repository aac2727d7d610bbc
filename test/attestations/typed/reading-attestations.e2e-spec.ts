import { bearer, createOrg, TestOrg } from '../../support/factories';
import { startTestApp, TestApp, uniqueName } from '../../support/test-app';
import { FP, postGeneric, reportArtifact } from '../../support/attestation-helpers';
import { fixture, postTyped } from './typed-helpers';

const C1 = 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6';
const C2 = '3f1c0d2b9a8e7f6d5c4b3a29181716151413121a';
const C3 = '0000000000000000000000000000000000000003';
const JUNIT_RESULTS = [{ name: 'ledger/moments', failures: 1, errors: 0, skipped: 1, total: 3, duration: 1.9 }];

describe('reading attestations back', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  const get = (path: string) => t.http().get(`/api/v2/attestations/${org.name}${path}`).set(...bearer(org.adminKey));
  const junit = (flow: string, trail: string, data: object) =>
    postTyped(t, org.adminKey, org.name, flow, trail, 'junit', { junit_results: JUNIT_RESULTS, ...data }, { content: fixture('jest-junit.xml'), filename: 'junit.xml' }).expect(201);

  describe('GET /attestations/{org}', () => {
    it('lists the whole org newest first, a page at a time, with each type\'s typed fields', async () => {
      await postGeneric(t, org.adminKey, org.name, 'alpha', 't1', { attestation_name: 'first', is_compliant: true }).expect(201);
      await junit('beta', 't1', { attestation_name: 'second' });
      await postGeneric(t, org.adminKey, org.name, 'alpha', 't2', { attestation_name: 'third', is_compliant: false }).expect(201);
      const all = await get('').expect(200);
      expect(all.body.data.map((a: any) => `${a.flow_name}/${a.attestation_name}`)).toEqual(['alpha/third', 'beta/second', 'alpha/first']);
      expect(all.body.pagination).toEqual({ total: 3, page: 1, per_page: 20, page_count: 1 });
      expect(all.body.data[1]).toMatchObject({ attestation_type: 'junit', junit: { failures: 1, total: 5 } });
      const second = await get('?per_page=2&page=2').expect(200);
      expect(second.body.data.map((a: any) => a.attestation_name)).toEqual(['first']);
      expect(second.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, page_count: 2 });
      expect(second.body._links.prev).toMatch(/page=1/);
      const one = await get(`?attestation_id=${all.body.data[1].attestation_id}`).expect(200);
      expect(one.body.data.map((a: any) => a.attestation_name)).toEqual(['second']);
      const bad = await get('?per_page=101');
      expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['query.per_page']]);
    });

    it('is empty for an org without attestations', async () => {
      const res = await get('').expect(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination.total).toBe(0);
    });
  });

  describe('GET /attestations/{org}/list_attestations_for_criteria', () => {
    it('maps each commit asked for to the attestations that name it, narrowed by flow, name and type', async () => {
      await junit('app', 't1', { attestation_name: 'unit', git_commit_info: { sha1: C1, message: 'm' } });
      await postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: 'manual', is_compliant: true, git_commit_info: { sha1: C1 } }).expect(201);
      await postGeneric(t, org.adminKey, org.name, 'other', 't1', { attestation_name: 'manual', is_compliant: true, git_commit_info: { sha1: C2 } }).expect(201);
      await postGeneric(t, org.adminKey, org.name, 'app', 't3', { attestation_name: 'no-commit', is_compliant: true }).expect(201);

      const all = await get(`/list_attestations_for_criteria?commit_list=${C1}&commit_list=${C2}&commit_list=${C3}`).expect(200);
      expect(Object.keys(all.body).sort()).toEqual([C3, C2, C1].sort());
      expect(all.body[C1].map((a: any) => a.attestation_name)).toEqual(['manual', 'unit']);
      expect(all.body[C1][1]).toMatchObject({ attestation_type: 'junit', junit: { failures: 1 }, git_commit_info: { sha1: C1 } });
      expect(all.body[C2].map((a: any) => a.flow_name)).toEqual(['other']);
      expect(all.body[C3]).toEqual([]);

      const comma = await get(`/list_attestations_for_criteria?commit_list=${C1},${C2}&attestation_type=junit`).expect(200);
      expect(comma.body[C1].map((a: any) => a.attestation_name)).toEqual(['unit']);
      expect(comma.body[C2]).toEqual([]);
      const byFlowAndName = await get(`/list_attestations_for_criteria?commit_list=${C1},${C2}&flow_name=other&attestation_name=manual`).expect(200);
      expect([byFlowAndName.body[C1], byFlowAndName.body[C2].length]).toEqual([[], 1]);
      const one = await get(`/list_attestations_for_criteria?commit_list=${C1}&attestation_id=${all.body[C1][1].attestation_id}`).expect(200);
      expect(one.body[C1].map((a: any) => a.attestation_name)).toEqual(['unit']);
      const custom = await get(`/list_attestations_for_criteria?commit_list=${C1}&attestation_type=custom:security-scan`).expect(200);
      expect(custom.body).toEqual({ [C1]: [] });
    });

    it('400 without commit_list (the reference message), for a commit that is not a SHA and an unknown type', async () => {
      const none = await get('/list_attestations_for_criteria?attestation_type=junit');
      expect([none.status, none.body.message, none.body.errors]).toEqual([400, 'commit_list is required: provide one or more commit SHAs to search.', { 'query.commit_list': 'is required' }]);
      const bad = await get('/list_attestations_for_criteria?commit_list=main');
      expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['query.commit_list']]);
      const type = await get(`/list_attestations_for_criteria?commit_list=${C1}&attestation_type=cobol`);
      expect([type.status, type.body.errors['query.attestation_type']]).toEqual([400, expect.stringMatching(/junit.*or custom:<name>/)]);
    });
  });

  describe('GET /attestations/{org}/{flow}/artifact/{fingerprint}/{name}', () => {
    it('finds an artifact\'s attestation by fingerprint or its prefix, attested by fingerprint or by template name', async () => {
      const flow = uniqueName('flow');
      await reportArtifact(t, org.adminKey, org.name, flow, 't1', FP('a'), 'web');
      await junit(flow, 't1', { attestation_name: 'unit', artifact_fingerprint: FP('a') });
      // By template name before the artifact is reported in t2, then reported there.
      await junit(flow, 't2', { attestation_name: 'unit', target_artifacts: ['api'] });
      await reportArtifact(t, org.adminKey, org.name, flow, 't2', FP('b'), 'api');

      const byFull = await get(`/${flow}/artifact/${FP('a')}/unit`).expect(200);
      expect(byFull.body).toHaveLength(1);
      expect(byFull.body[0]).toMatchObject({ attestation_type: 'junit', artifact_name: 'web', trail_name: 't1', junit: { failures: 1 } });
      const byPrefix = await get(`/${flow}/artifact/${FP('b').slice(0, 7)}/unit`).expect(200);
      expect(byPrefix.body.map((a: any) => [a.trail_name, a.artifact_name])).toEqual([['t2', 'api']]);
    });

    it('404 for an unknown flow or attestation, 400 for a fingerprint that is not hex', async () => {
      const flow = uniqueName('flow');
      await reportArtifact(t, org.adminKey, org.name, flow, 't1', FP('a'), 'web');
      const noFlow = await get(`/nope/artifact/${FP('a')}/unit`);
      expect([noFlow.status, noFlow.body.message]).toEqual([404, "Flow 'nope' not found"]);
      const noName = await get(`/${flow}/artifact/${FP('a')}/unit`);
      expect([noName.status, noName.body.message]).toEqual([404, `Attestation 'unit' not found for artifact '${FP('a')}' in flow '${flow}'`]);
      const bad = await get(`/${flow}/artifact/XYZ/unit`);
      expect([bad.status, bad.body.errors]).toEqual([400, { 'path.fingerprint': 'must be 5 to 64 lowercase hex characters' }]);
    });
  });
});
