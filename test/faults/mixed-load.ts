/** The fault suite's client and load: real HTTP (fetch) against a service process, no supertest app. */
import { backOff } from '../support/wait';

const ORG = 'faults';
const TRAILS = 6;
const POLICY = 'package policy\n\nimport rego.v1\n\nallow if input.trail.name != ""\n';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** An org with a flow `app` (a webhook action on it), trails t0..t5, an environment, and a flow `before`. */
export class Client {
  private constructor(
    private readonly base: string,
    private readonly key: string,
  ) {}

  static async setUp(port: number, adminToken: string, webhook: string): Promise<Client> {
    const base = `http://127.0.0.1:${port}`;
    const created = await send(base, adminToken, 'POST', '/api/v2/admin/organizations', {
      name: ORG,
      features: ['evaluations'],
      admin: { email: 'ops@faults.example.com' },
    });
    if (created.status !== 201) throw new Error(`create org: ${created.status} ${JSON.stringify(created.body)}`);
    const client = new Client(base, created.body.admin.api_key);
    await client.expect('PUT', `/api/v2/flows/${ORG}`, { name: 'app' }, 201);
    await client.expect('PUT', `/api/v2/actions/${ORG}/flows`, { name: 'events', flows: ['app'], triggers: ['ON_ATTESTATION'], targets: [{ type: 'WEBHOOK', webhook }] }, 201);
    for (let t = 0; t < TRAILS; t++) await client.expect('PUT', `/api/v2/trails/${ORG}/app`, { name: `t${t}` }, 201);
    await client.expect('PUT', `/api/v2/environments/${ORG}`, { name: 'prod', type: 'K8S', description: 'faults' }, 201);
    await client.expect('PUT', `/api/v2/flows/${ORG}`, { name: 'before' }, 201);
    await client.expect('PUT', `/api/v2/trails/${ORG}/before`, { name: 'release' }, 201);
    for (const name of ['unit-tests', 'scan', 'approval']) {
      await client.expect('POST', `/api/v2/attestations/${ORG}/before/trail/release/generic`, form({ attestation_name: name, is_compliant: name !== 'scan' }), 201);
    }
    return client;
  }

  /** The same org and key, through another service process. */
  at(port: number): Client {
    return new Client(`http://127.0.0.1:${port}`, this.key);
  }

  call(method: string, route: string, body?: unknown): Promise<Answer> {
    return send(this.base, this.key, method, route, body);
  }

  private async expect(method: string, route: string, body: unknown, status: number): Promise<Answer> {
    const answer = await this.call(method, route, body);
    if (answer.status !== status) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }

  attest(trail: string, name: string): Promise<Answer> {
    return this.call('POST', `/api/v2/attestations/${ORG}/app/trail/${trail}/generic`, form({ attestation_name: name, is_compliant: true }));
  }

  report(version: number): Promise<Answer> {
    const artifacts = [0, 1, 2].map((i) => ({
      podName: `svc-${i}-abc12`,
      namespace: 'prod',
      digests: { [`registry.example.com/svc-${i}:1`]: (i === 0 ? version : 0).toString(16).padStart(64, 'a') },
      creationTimestamp: 1_700_000_000 + i,
    }));
    return this.call('PUT', `/api/v2/environments/${ORG}/prod/report/K8S`, { artifacts });
  }

  async evaluate(trail: string, policy = POLICY): Promise<any> {
    const answer = await this.call('POST', `/api/v2/evaluations/${ORG}`, { context: { trails: [{ flow: 'app', trail }] }, policy: { files: { 'p.rego': policy } } });
    if (answer.status !== 201) throw new Error(`evaluate: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async attestationNames(): Promise<string[]> {
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.expect('GET', `/api/v2/attestations/${ORG}/app?per_page=100&page=${page}`, undefined, 200);
      names.push(...answer.body.data.map((a: { attestation_name: string }) => a.attestation_name));
      if (answer.body.data.length < 100) return names;
    }
  }

  async evaluationStatuses(ids: string[]): Promise<string[]> {
    return Promise.all(ids.map(async (id) => (await this.expect('GET', `/api/v2/evaluations/${ORG}/${id}`, undefined, 200)).body.status));
  }

  /** What a reader sees of the flow written before any fault. */
  async snapshotOfBefore(): Promise<{ trail: unknown; attestations: unknown }> {
    const trail = (await this.expect('GET', `/api/v2/trails/${ORG}/before/release`, undefined, 200)).body;
    const attestations = (await this.expect('GET', `/api/v2/attestations/${ORG}/before`, undefined, 200)).body;
    return { trail, attestations };
  }
}

/** A multipart body with one `data_json` field (what the CLI sends). */
function form(data: unknown): FormData {
  const f = new FormData();
  f.append('data_json', JSON.stringify(data));
  return f;
}

async function send(base: string, key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const isForm = body instanceof FormData;
  const res = await fetch(base + route, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a plain string answer
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

export interface LoadStats {
  /** names of the attestations answered 201 */
  attested: string[];
  /** ids of the evaluations answered 201 */
  evaluations: string[];
  /** 503 answers (each with Retry-After, or it is in `unexpected`) */
  unavailable: number;
  /** requests with no answer: the connection was refused or cut (a dead service) */
  refused: number;
  /** anything else: a 5xx other than a proper 503, a 4xx, an error body missing */
  unexpected: string[];
}

/**
 * Concurrent loops of mixed requests (attestations, reports, evaluations, listing) until stopped; each answer is
 * classified. The fault scenario waits on its counters (acknowledged, unavailable, refused), never on time.
 */
export class MixedLoad {
  readonly stats: LoadStats = { attested: [], evaluations: [], unavailable: 0, refused: 0, unexpected: [] };
  private stopped = false;
  private sequence = 0;
  private waiters: Array<() => void> = [];

  constructor(private readonly client: () => Client) {}

  get acknowledgedCount(): number {
    return this.stats.attested.length;
  }

  async run(loops: number): Promise<void> {
    await Promise.all(Array.from({ length: loops }, (_, i) => this.loop(i)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
  }

  /** Resolves once `n` attestations in all have been answered 201. */
  acknowledged(n: number, timeoutMs = 60_000): Promise<void> {
    return this.until(() => this.stats.attested.length >= n, timeoutMs, `${n} acknowledged attestations`);
  }

  /** Resolves once `n` more answers were 503. */
  unavailable(n: number, timeoutMs = 60_000): Promise<void> {
    const target = this.stats.unavailable + n;
    return this.until(() => this.stats.unavailable >= target, timeoutMs, `${n} answers 503`);
  }

  /** Resolves once `n` more requests found no service. */
  refused(n: number, timeoutMs = 60_000): Promise<void> {
    const target = this.stats.refused + n;
    return this.until(() => this.stats.refused >= target, timeoutMs, `${n} refused connections`);
  }

  private until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`load: ${what} not reached within ${timeoutMs} ms (${JSON.stringify({ ...this.stats, attested: this.stats.attested.length })})`)), timeoutMs);
      const check = () => {
        if (!done()) return this.waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  private notify(): void {
    const waiting = this.waiters.splice(0);
    for (const check of waiting) check();
  }

  private async loop(index: number): Promise<void> {
    while (!this.stopped) {
      const n = this.sequence++;
      const kind = n % 10;
      try {
        if (kind < 5) {
          const name = `load-${n}`;
          const answer = await this.client().attest(`t${index % TRAILS}`, name);
          if (this.classify(answer, [201], `attest ${name}`)) this.stats.attested.push(name);
        } else if (kind < 7) {
          const answer = await this.client().report(Math.floor(n / 10));
          this.classify(answer, [200, 201], 'report');
        } else if (kind < 9) {
          const answer = await this.client().call('POST', `/api/v2/evaluations/${ORG}`, {
            context: { trails: [{ flow: 'app', trail: `t${index % TRAILS}` }] },
            policy: { files: { 'p.rego': POLICY } },
          });
          if (this.classify(answer, [201], 'evaluate')) this.stats.evaluations.push(answer.body.id);
        } else {
          this.classify(await this.client().call('GET', `/api/v2/attestations/${ORG}/app?per_page=20`), [200], 'list');
        }
      } catch {
        // no answer at all: the service is gone (connection refused or reset)
        this.stats.refused++;
        // a refused connection fails at once: a short pause, so the loops do not spin while the service is down
        await backOff(20);
      }
      this.notify();
    }
  }

  /** True for an expected success; counts a proper 503; records anything else. */
  private classify(answer: Answer, ok: number[], what: string): boolean {
    if (ok.includes(answer.status)) return true;
    const errorBody = typeof answer.body === 'object' && answer.body !== null && typeof answer.body.message === 'string';
    if (answer.status === 503 && errorBody && /^\d+$/.test(answer.headers.get('retry-after') ?? '')) {
      this.stats.unavailable++;
      return false;
    }
    this.stats.unexpected.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    return false;
  }
}
