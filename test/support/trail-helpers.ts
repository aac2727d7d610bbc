import { bearer, TestOrg } from './factories';
import { TestApp } from './test-app';

/** Requests a CLI user makes, shared by the flows/trails/artifacts/moments specs. */
export function evidenceClient(t: TestApp, org: TestOrg, key = org.adminKey) {
  return {
    createFlow(name: string, template?: string) {
      const req = t
        .http()
        .put(`/api/v2/flows/${org.name}/template_file`)
        .set(...bearer(key))
        .field('data_json', JSON.stringify({ name, description: '', visibility: 'private' }));
      return template === undefined ? req : req.attach('template_file', Buffer.from(template), 'template.yml');
    },
    beginTrail(flow: string, data: unknown, template?: string) {
      const req = t
        .http()
        .put(`/api/v2/trails/${org.name}/${flow}`)
        .set(...bearer(key))
        .field('data_json', typeof data === 'string' ? data : JSON.stringify(data));
      return template === undefined ? req : req.attach('template_file', Buffer.from(template), 'template.yml');
    },
    getTrail(flow: string, trail: string) {
      return t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}`).set(...bearer(key));
    },
    reportArtifact(flow: string, body: Record<string, unknown>) {
      return t.http().post(`/api/v2/artifacts/${org.name}/${flow}`).set(...bearer(key)).send(body);
    },
    attest(flow: string, trail: string, data: Record<string, unknown>) {
      return t
        .http()
        .post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/generic`)
        .set(...bearer(key))
        .field('data_json', JSON.stringify(data));
    },
    moment(flow: string, trail: string, expression: string) {
      return t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}/moments/${encodeURIComponent(expression)}`).set(...bearer(key));
    },
  };
}

export const fingerprint = (c: string) => c.repeat(64).slice(0, 64);

export const TEMPLATE = `version: 1
trail:
  attestations:
    - name: pull-request
      type: generic
  artifacts:
    - name: backend
      attestations:
        - name: unit-test
          type: generic
`;
