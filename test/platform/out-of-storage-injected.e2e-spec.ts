import { randomBytes } from 'node:crypto';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { EvidenceStore } from '../../src/modules/attestations/persistence/evidence.store';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Lack of resources by fault injection, on the shared test database: PostgreSQL itself raises its class-53
 * errors (a trigger on the tables a write touches, for this test's org only), and the evidence store fails with
 * ENOSPC. Every refusal is a 503 with Retry-After and a message naming what ran out; one error line per incident;
 * the metrics count each refusal; nothing acknowledged is lost and writes resume when the fault goes away.
 * (`test/faults/disk-full.faults-spec.ts` does it on a real full file system.)
 */
describe('out of resources, injected', () => {
  let t: TestApp;
  let org: TestOrg;
  let orgId: string;
  const lines: Array<Record<string, unknown>> = [];
  const suffix = randomBytes(4).toString('hex');
  const faults = `test_resource_faults_${suffix}`;
  const fn = `test_resource_fault_${suffix}`;
  const tables = ['flows', 'attestations'];

  beforeAll(async () => {
    t = await startTestApp({}, { logger: new JsonLogger('info', 'json', (line) => lines.push(JSON.parse(line))) });
    org = await createOrg(t);
    orgId = (await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]))[0].id;
    // Raises the SQLSTATE set for this org (none: no fault); other specs' orgs never match.
    await t.dataSource.query(`CREATE TABLE ${faults} (org_id text PRIMARY KEY, sqlstate text NOT NULL)`);
    await t.dataSource.query(`
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE code text;
      BEGIN
        SELECT sqlstate INTO code FROM ${faults} WHERE org_id = NEW.org_id::text;
        IF code IS NOT NULL THEN
          RAISE EXCEPTION 'could not extend file "base/16384/2613": No space left on device' USING ERRCODE = code;
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of tables) {
      await t.dataSource.query(`CREATE TRIGGER ${fn}_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    }
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app', description: 'd', visibility: 'private' }).expect(201);
    await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'release' })).expect(201);
  });

  afterAll(async () => {
    for (const table of tables) await t?.dataSource.query(`DROP TRIGGER IF EXISTS ${fn}_${table} ON ${table}`);
    await t?.dataSource.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    await t?.dataSource.query(`DROP TABLE IF EXISTS ${faults}`);
    await t?.close();
  });

  const inject = (sqlstate: string | null) =>
    sqlstate
      ? t.dataSource.query(`INSERT INTO ${faults} VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET sqlstate = $2`, [orgId, sqlstate])
      : t.dataSource.query(`DELETE FROM ${faults} WHERE org_id = $1`, [orgId]);
  const attest = (name: string, attachment?: Buffer) => {
    const req = t
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/release/generic`)
      .set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: true }));
    return attachment ? req.attach('attachment_file', attachment, `${name}.bin`) : req;
  };
  const putFlow = (name: string) => t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name, description: 'd', visibility: 'private' });
  const refusal = (message: string) => ({ status: 503, retryAfter: expect.stringMatching(/^[1-9]\d*$/), body: { message, errors: null } });
  const answer = (res: { status: number; headers: Record<string, string>; body: unknown }) => ({ status: res.status, retryAfter: res.headers['retry-after'], body: res.body });
  const metric = async (series: string) => {
    const text = (await t.http().get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(series + ' '));
    return line ? Number(line.split(' ').pop()) : 0;
  };
  const storedNames = async () => {
    const res = await t.http().get(`/api/v2/attestations/${org.name}/app?per_page=100`).set(...bearer(org.adminKey)).expect(200);
    return new Set((res.body.data as Array<{ attestation_name: string }>).map((a) => a.attestation_name));
  };

  it("PostgreSQL's class 53 is a 503 naming what ran out, one error line per incident, and writes resume when it is gone", async () => {
    const acknowledged: string[] = [];
    for (const name of ['before-1', 'before-2']) {
      await attest(name, Buffer.from(`evidence ${name}`)).expect(201);
      acknowledged.push(name);
    }
    const refusedBefore = await metric('veritrail_resource_refusals_total{resource="storage",store="database"}');

    await inject('53100'); // disk_full
    const storage = 'The server is out of storage; retry later';
    const answers = [
      answer(await attest('full-1', Buffer.from('a small file'))),
      answer(await attest('full-2')),
      answer(await attest('full-3', randomBytes(700 * 1024))),
      answer(await putFlow('another')),
      answer(await putFlow('app')), // an update, too
    ];
    expect(answers).toEqual(answers.map(() => refusal(storage)));
    expect(answers[0].retryAfter).toBe('30');
    expect(await metric('veritrail_resource_refusals_total{resource="storage",store="database"}')).toBe(refusedBefore + answers.length);
    expect(await metric('veritrail_storage_exhausted')).toBe(1);
    const ready = await t.http().get('/ready');
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready', database: 'ok', storage: 'exhausted' }]);
    // Reads still work.
    await t.http().get(`/api/v2/flows/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    const incidentLines = lines.filter((l) => l.level === 'error' && l.resource === 'storage');
    expect(incidentLines).toEqual([expect.objectContaining({ msg: expect.stringMatching(/^out of storage/), store: 'database', error: expect.stringMatching(/No space left/) })]);
    expect(lines.filter((l) => l.msg === 'unexpected error')).toEqual([]);

    await inject('53200'); // out_of_memory
    expect(answer(await attest('oom'))).toEqual(refusal('The server is out of memory; retry later'));
    await inject('53300'); // too_many_connections
    expect(answer(await putFlow('conn'))).toEqual(refusal('The server has no free database connections; retry later'));
    await inject('53400'); // configuration_limit_exceeded
    expect(answer(await putFlow('limit'))).toEqual(refusal('The server is out of resources; retry later'));

    await inject(null);
    await attest('after', Buffer.from('evidence after')).expect(201);
    acknowledged.push('after');
    await putFlow('another').expect(201);
    const stored = await storedNames();
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    expect(['full-1', 'full-2', 'full-3', 'oom'].filter((name) => stored.has(name))).toEqual([]);
  });

  it('an evidence store that fails with ENOSPC: attachments are refused with 503, attestations without one still recorded', async () => {
    const store = t.app.get(EvidenceStore, { strict: false });
    const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    // Fails whenever it is given bytes to keep (given none, it has nothing to write and does as before).
    const putMany = store.putMany.bind(store);
    const putAhead = store.putAhead.bind(store);
    const spies = [
      jest.spyOn(store, 'put').mockImplementation(async () => Promise.reject(enospc())),
      jest.spyOn(store, 'putMany').mockImplementation(async (manager, evidence) => (evidence.length ? Promise.reject(enospc()) : putMany(manager, evidence))),
      jest.spyOn(store, 'putAhead').mockImplementation(async (evidence) => (evidence.length ? Promise.reject(enospc()) : putAhead(evidence))),
    ];
    try {
      for (const [name, size] of [['store-full-small', 1024], ['store-full-large', 700 * 1024]] as const) {
        expect(answer(await attest(name, randomBytes(size)))).toEqual(refusal('The server is out of storage; retry later'));
      }
      await attest('no-attachment').expect(201);
      expect(await metric('veritrail_resource_refusals_total{resource="storage",store="files"}')).toBeGreaterThanOrEqual(2);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    await attest('store-back', randomBytes(2048)).expect(201);
    const stored = await storedNames();
    expect(['no-attachment', 'store-back'].filter((name) => !stored.has(name))).toEqual([]);
    expect(['store-full-small', 'store-full-large'].filter((name) => stored.has(name))).toEqual([]);
  });
});
