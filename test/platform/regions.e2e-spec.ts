import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('regions', () => {
  let eu: TestApp;
  let euWithoutPeers: TestApp;

  beforeAll(async () => {
    eu = await startTestApp({ REGION: 'eu', PEER_REGIONS: 'us=https://us.veritrail.example' });
    euWithoutPeers = await startTestApp({ REGION: 'eu' });
  });
  afterAll(async () => {
    await eu.close();
    await euWithoutPeers.close();
  });

  it('an org of the other region answers 404 with the peer base URL in X-Region-Location', async () => {
    const org = await createOrg(eu, { region: 'us' });
    const res = await eu.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey));
    expect(res.status).toBe(404);
    expect(res.headers['x-region-location']).toBe('https://us.veritrail.example');
    expect(res.body.message).toContain(org.name);
  });

  it('without a configured peer the 404 has no region header', async () => {
    const org = await createOrg(euWithoutPeers, { region: 'us' });
    const res = await euWithoutPeers.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey));
    expect(res.status).toBe(404);
    expect(res.headers['x-region-location']).toBeUndefined();
  });

  it('an org of this region is served, and the org reports its region', async () => {
    const org = await createOrg(eu, { features: ['evaluations'] });
    const res = await eu.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(res.body).toMatchObject({ name: org.name, region: 'eu', features: ['evaluations'], role: 'admin' });
  });
});
