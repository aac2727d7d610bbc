import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatVerifierKey, MemoryTree, noteSigner, NoteSigner, signCheckpoint } from '../src';
import { runVerifyCli } from './run-cli';

/**
 * A tiny log server built with the library, as the service would serve it: the latest signed checkpoint and
 * consistency proofs. Tests swap its tree to play an operator who rewrites history.
 */
class FakeLog {
  tree = new MemoryTree();
  signer: NoteSigner;
  origin = 'log.example/acme';
  server!: Server;
  requests: string[] = [];
  token = 'secret-token';

  constructor(signer: NoteSigner) {
    this.signer = signer;
  }

  append(...items: string[]): void {
    for (const item of items) this.tree.appendData(Buffer.from(item));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      if (req.headers.authorization !== `Bearer ${this.token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"unauthorized","errors":{}}');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/v2/log/acme/checkpoint') {
        const body = signCheckpoint({ origin: this.origin, size: this.tree.size, rootHash: this.tree.root() }, [this.signer]);
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
        return;
      }
      if (url.pathname === '/api/v2/log/acme/proof/consistency') {
        const first = Number(url.searchParams.get('first'));
        const second = Number(url.searchParams.get('second'));
        const path = this.tree.consistencyProof(first, second).map((h) => h.toString('base64'));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ first, second, consistency_path: path }));
        return;
      }
      res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('verify log (the monitor)', () => {
  const signer = noteSigner('log.example', generateKeyPairSync('ed25519').privateKey);
  const vkey = formatVerifierKey(signer);
  let log: FakeLog;
  let base: string;
  let dir: string;
  let state: string;

  beforeEach(async () => {
    log = new FakeLog(signer);
    base = await log.start();
    dir = mkdtempSync(join(tmpdir(), 'verify-log-'));
    state = join(dir, 'state.json');
  });
  afterEach(async () => {
    await log.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(...extra: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runVerifyCli(['log', '--url', base, '--org', 'acme', '--key', vkey, '--state', state, ...extra], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: { VERITRAIL_API_TOKEN: log.token },
    });
    return { code, out, err };
  }

  const savedSize = () => JSON.parse(readFileSync(state, 'utf8')).size as number;

  it('trusts the first checkpoint, then proves each later one consistent and saves it', async () => {
    log.append('a', 'b', 'c');
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.out.join('\n')).toMatch(/first checkpoint: size 3/);
    expect(savedSize()).toBe(3);

    log.append('d', 'e', 'f', 'g', 'h', 'i');
    const second = await run();
    expect(second).toMatchObject({ code: 0, err: [] });
    expect(second.out.join('\n')).toMatch(/size 3 -> 9 proved consistent/);
    expect(log.requests).toContain('/api/v2/log/acme/proof/consistency?first=3&second=9');
    expect(savedSize()).toBe(9);

    const unchanged = await run();
    expect(unchanged.code).toBe(0);
    expect(unchanged.out.join('\n')).toMatch(/unchanged at size 9/);
  });

  it('grows from an empty log without asking for a proof', async () => {
    expect((await run()).code).toBe(0);
    expect(savedSize()).toBe(0);
    log.append('a');
    expect((await run()).code).toBe(0);
    expect(log.requests.filter((r) => r.includes('consistency'))).toEqual([]);
    expect(savedSize()).toBe(1);
  });

  it('reports a rewritten entry as a rewritten history, exits 1 and keeps the saved state', async () => {
    log.append('a', 'b', 'c', 'd', 'e');
    expect((await run()).code).toBe(0);
    const before = readFileSync(state, 'utf8');

    // The operator rewrites entry 1 and keeps appending: every checkpoint it signs is well-formed.
    const forged = new MemoryTree();
    for (const x of ['a', 'B', 'c', 'd', 'e', 'f', 'g']) forged.appendData(Buffer.from(x));
    log.tree = forged;
    const result = await run();
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(/^FAIL rewritten history: .*consistency proof fails/);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('reports a log that shrank or signed another root for the same size', async () => {
    log.append('a', 'b', 'c', 'd');
    expect((await run()).code).toBe(0);
    const shrunk = new MemoryTree();
    for (const x of ['a', 'b', 'c']) shrunk.appendData(Buffer.from(x));
    log.tree = shrunk;
    expect((await run()).err[0]).toMatch(/FAIL rewritten history: the log shrank from 4 to 3/);

    const sameSize = new MemoryTree();
    for (const x of ['a', 'b', 'c', 'X']) sameSize.appendData(Buffer.from(x));
    log.tree = sameSize;
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/two different roots were signed for size 4/);
  });

  it('refuses a checkpoint not signed by the given key', async () => {
    log.append('a');
    const other = noteSigner('log.example', generateKeyPairSync('ed25519').privateKey);
    log.signer = other;
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^FAIL checkpoint: no signature by a known key/);
    expect(existsSync(state)).toBe(false);
  });

  it('accepts the keys answer of the service as a key file', async () => {
    log.append('a');
    const keysFile = join(dir, 'keys.json');
    writeFileSync(keysFile, JSON.stringify({ keys: [{ name: 'log.example', vkey, active: true }] }));
    const out: string[] = [];
    const code = await runVerifyCli(['log', '--url', base, '--org', 'acme', '--key', keysFile, '--state', state], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
      env: { VERITRAIL_API_TOKEN: log.token },
    });
    expect(code).toBe(0);
  });

  it('says why it could not check (exit 2): no credential, missing options', async () => {
    const noToken = await runVerifyCli(['log', '--url', base, '--org', 'acme', '--key', vkey, '--state', state], { out: () => {}, err: () => {}, env: {} });
    expect(noToken).toBe(2);
    const err: string[] = [];
    expect(await runVerifyCli(['log', '--url', base], { out: () => {}, err: (l) => err.push(l), env: {} })).toBe(2);
    expect(err[0]).toMatch(/--org is required/);
  });
});
