import Ajv from 'ajv';
import { ENVIRONMENT_EVENT_LIST_SCHEMA } from '../../src/modules/environments/dto/environment-event.schema';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient } from '../support/trail-helpers';
import { digest, envApi, pod } from '../support/env-helpers';

const ajv = new Ajv({ strict: false, allErrors: true });

/** An RFC 4180 reader, for checking what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field), rows.push(row), (row = []), (field = ''), i++;
    } else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

/** A name a CSV writer must quote: a comma, quotes and a newline. */
const AWKWARD = 'api, "beta"\nv2';

describe('environment event log and audit log', () => {
  let t: TestApp;
  let org: TestOrg;
  const web = digest('web');
  const api = digest('api');
  const get = (path: string, query: Record<string, unknown> = {}) => t.http().get(`/api/v2/environments/${org.name}/${path}`).query(query).set(...bearer(org.adminKey));

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    await evidenceClient(t, org)
      .reportArtifact('web-ci', {
        fingerprint: web,
        filename: 'web',
        trail_name: 'b1',
        template_reference_name: 'web',
        repo_info: { name: 'acme/web', url: 'https://git.example/acme/web', id: '7', provider: 'github' },
      })
      .expect(201);
    const env = envApi(t, org);
    await env.create({ name: 'prod', type: 'K8S', include_scaling: true }).expect(201);
    await env.report('prod', 'K8S', { artifacts: [pod('w1', { web }), pod('w2', { web })] }).expect(201); // #1: web started (2)
    await env.report('prod', 'K8S', { artifacts: [pod('w1', { web }), pod('w2', { web }), pod('w3', { web }), pod('a1', { [AWKWARD]: api })] }).expect(201); // #2
    await env.report('prod', 'K8S', { artifacts: [pod('a1', { [AWKWARD]: api })] }).expect(201); // #3: web exited
  });
  afterAll(() => t.close());

  it('lists started, changed, exited and compliance entries, newest first, in the reference shape, with paging headers', async () => {
    const res = await get('prod/events').expect(200);
    const validate = ajv.compile(ENVIRONMENT_EVENT_LIST_SCHEMA);
    expect(validate(res.body) ? 'ok' : ajv.errorsText(validate.errors)).toBe('ok');
    const seen = res.body.map((e: any) => [e.snapshot_index, e.type, e.artifact_name, e.description]);
    expect(seen).toEqual([
      [3, 'exited', 'web', '3 instances exited'],
      [2, 'changed', 'web', 'instances changed from 2 to 3'],
      [2, 'started', AWKWARD, '1 instance started'],
      [1, 'compliance_changed', '', 'environment became compliant'],
      [1, 'started', 'web', '2 instances started'],
    ]);
    const started = res.body[4];
    expect(started).toMatchObject({ environment_name: 'prod', sha256: web, pipeline: 'web-ci', flows: [{ flow_name: 'web-ci', deployments: null }], repo_names: ['acme/web'] });
    expect(started._links.artifact.self).toContain(`/api/v2/artifacts/${org.name}/web-ci/fingerprint/${web}`);
    expect(res.body[2]).toMatchObject({ pipeline: '', flows: [], sha256: api, artifact_compliance: true }); // no provenance
    expect(res.headers).toMatchObject({ 'x-total-count': '5', 'x-per-page': '15', 'x-current-page': '1', 'x-total-pages': '1' });
    expect(res.headers.link).toBeUndefined();

    const page2 = await get('prod/events', { page: 2, per_page: 2 }).expect(200);
    expect(page2.body.map((e: any) => [e.snapshot_index, e.type])).toEqual([
      [2, 'started'],
      [1, 'compliance_changed'],
    ]);
    expect(page2.headers['x-total-pages']).toBe('3');
    expect(page2.headers.link).toContain('rel="first"');
    expect(page2.headers.link).toContain('page=3&per_page=2>; rel="next"');
    expect((await get('prod/events', { page: 9, per_page: 2 }).expect(200)).body).toEqual([]);
  });

  it('narrows by interval, start/end (numbers, counted back, times), repo, and reverses', async () => {
    const types = async (query: Record<string, unknown>) => (await get('prod/events', query).expect(200)).body.map((e: any) => `${e.snapshot_index}:${e.type}`);
    expect(await types({ reverse: 'true' })).toEqual(['1:started', '1:compliance_changed', '2:started', '2:changed', '3:exited']);
    expect(await types({ interval: '2..NOW' })).toEqual(['3:exited', '2:changed', '2:started']);
    expect(await types({ interval: '' })).toHaveLength(5); // what the CLI sends without --interval
    expect(await types({ start: '2', end: '2' })).toEqual(['2:changed', '2:started']);
    expect(await types({ start: '-1' })).toEqual(['3:exited']);
    expect(await types({ end: '-3' })).toEqual(['1:compliance_changed', '1:started']);
    expect(await types({ start: '1hour', end: 'NOW' })).toHaveLength(5);
    expect(await types({ start_ts: 4102444800 })).toEqual([]); // 2100
    expect(await types({ repo_name: ['acme/web', 'other/repo'] })).toEqual(['3:exited', '2:changed', '1:started']);
    expect(await types({ repo_name: 'nobody/else' })).toEqual([]);
  });

  it('answers 400 for malformed bounds and 404 for an unknown environment', async () => {
    expect((await get('prod/events', { start: 'yesterday' }).expect(400)).body.errors).toHaveProperty(['query.start']);
    expect((await get('prod/events', { interval: '1...' }).expect(400)).body.errors).toHaveProperty(['query.interval']);
    expect((await get('prod/events', { reverse: 'maybe' }).expect(400)).body.errors).toHaveProperty(['query.reverse']);
    expect((await get('nope/events').expect(404)).body.message).toBe("Environment 'nope' not found");
    expect((await get('nope/auditlog').expect(404)).body.message).toBe("Environment 'nope' not found");
  });

  it('GET .../auditlog: CSV, oldest first, every field quoted as it must be, filters', async () => {
    const res = await get('prod/auditlog').buffer(true).parse((r, cb) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => cb(null, text));
    }).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.body as string);
    expect(rows[0]).toEqual(['snapshot', 'reported_at', 'type', 'artifact_name', 'fingerprint', 'description', 'flows', 'repos', 'artifact_compliance', 'snapshot_compliance']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[6], r[7]])).toEqual([
      ['1', 'started', 'web', 'web-ci', 'acme/web'],
      ['1', 'compliance_changed', '', '', ''],
      ['2', 'started', AWKWARD, '', ''],
      ['2', 'changed', 'web', 'web-ci', 'acme/web'],
      ['3', 'exited', 'web', 'web-ci', 'acme/web'],
    ]);
    expect(rows.every((r) => r.length === 10)).toBe(true);

    const text = async (query: Record<string, unknown>) =>
      parseCsv((await get('prod/auditlog', query).buffer(true).parse((r, cb) => {
        let s = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (s += c));
        r.on('end', () => cb(null, s));
      }).expect(200)).body as string).slice(1).map((r) => `${r[0]}:${r[2]}`);
    expect(await text({ event_types: 'started,exited' })).toEqual(['1:started', '2:started', '3:exited']);
    expect(await text({ flow_names: 'no provenance' })).toEqual(['1:compliance_changed', '2:started']);
    expect(await text({ flow_names: 'web-ci', event_types: 'changed' })).toEqual(['2:changed']);
    expect(await text({ repo_names: 'acme/web,x/y' })).toEqual(['1:started', '2:changed', '3:exited']);
    expect(await text({ from_timestamp: 4102444800 })).toEqual([]);
    expect((await get('prod/auditlog', { event_types: 'started,deployed' }).expect(400)).body.errors).toHaveProperty(['query.event_types']);
    expect((await get('prod/auditlog', { from_timestamp: 'soon' }).expect(400)).body.errors).toHaveProperty(['query.from_timestamp']);
  });
});
