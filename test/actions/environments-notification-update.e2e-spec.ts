import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('PUT /organizations/{org}/environments_notifications/{number}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('updates that environment action, its name included; 404 for a flow action or an unknown number; 409 for a name in use', async () => {
    const org = await createOrg(t);
    const auth = bearer(org.adminKey);
    const legacy = (path = '') => `/api/v2/organizations/${org.name}/environments_notifications${path}`;
    const email = [{ type: 'EMAIL', emails: ['ops@example.com'] }];
    const created = await t.http().put(legacy()).set(...auth).send({ name: 'watch', environments: ['prod'], triggers: ['ON_STARTED_ARTIFACT'], targets: email }).expect(201);
    const number = created.body.number;
    const flowAction = await t.http().put(`/api/v2/actions/${org.name}/flows`).set(...auth).send({ name: 'flows', flows: ['ci'], triggers: ['ON_STARTED_TRAIL'], targets: email }).expect(201);

    const updated = await t.http().put(legacy(`/${number}`)).set(...auth).send({ name: 'watch-prod', environments: ['prod', 'stage'], triggers: ['ON_EXITED_ARTIFACT'], targets: email }).expect(200);
    expect(updated.body).toBe(`Environment notification ${number} 'watch-prod' updated`);
    const read = (await t.http().get(legacy(`/${number}`)).set(...auth).expect(200)).body;
    expect(read).toMatchObject({ number, name: 'watch-prod', environments: ['prod', 'stage'], triggers: ['ON_EXITED_ARTIFACT'] });

    const body = { name: 'x', environments: ['prod'], triggers: ['ON_STARTED_ARTIFACT'], targets: email };
    expect((await t.http().put(legacy(`/${flowAction.body.number}`)).set(...auth).send(body).expect(404)).body.message).toBe('Action not found');
    await t.http().put(legacy('/999')).set(...auth).send(body).expect(404);
    await t.http().put(legacy(`/${number}`)).set(...auth).send({ ...body, name: 'flows' }).expect(409);
    expect((await t.http().put(legacy(`/${number}`)).set(...auth).send({ ...body, triggers: ['ON_NOTHING'] }).expect(400)).body.errors).toBeTruthy();
    await t.http().put(legacy('/abc')).set(...auth).send(body).expect(400);
  });
});
