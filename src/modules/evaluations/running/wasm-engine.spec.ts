import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { hostBuiltins } from '../../../../libs/rego/src';
import { SPIN_WASM } from '../../../../test/support/wasm-test-loader';
import { loadBundle } from '../domain/policy-bundle';
import { EngineOutcome, EngineRequest } from './policy-engine';
import { evaluateWasm, WasmLoader, WasmPolicy } from './wasm-evaluation';

/**
 * The wasm adapter's contract. No OPA-compiled wasm can be produced on this machine (that takes `opa build`,
 * which is not installable here), so the SDK is stood in for by a loader that records what the adapter gives it
 * and answers as the SDK does; the adapter's own logic (memory cap, data, entrypoint, builtins, error kinds,
 * result shape) is what is tested. The engine itself (worker threads, deadline) is tested with a loader module
 * whose policy can call a real wasm loop that never ends, and with the real SDK.
 */
describe('WasmEngine', () => {
  const wasm = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  const bundle = loadBundle({ 'policy.wasm': wasm.toString('base64'), 'data.json': '{"limits": {"max": 3}}' });
  const request = (over: Partial<EngineRequest> = {}): EngineRequest => ({
    bundle,
    input: { trails: [] },
    inputJson: '{"trails":[]}',
    data: { ...bundle.data, params: { p: 1 } },
    nowNs: 1795564433672266000n,
    deadlineMs: 10_000,
    ...over,
  });

  function fake(answer: (input: unknown, data: object, entrypoint: unknown, builtins: Record<string, (...a: unknown[]) => unknown>) => unknown) {
    const seen: { memory?: { initial: number; maximum: number }; data?: object; entrypoint?: unknown } = {};
    const loader: WasmLoader = async (_wasm, memory, builtins) => {
      seen.memory = memory;
      const policy: WasmPolicy = {
        entrypoints: { policy: 0, 'policy/allow': 1 },
        setData: (data) => (seen.data = data),
        evaluate: (input, entrypoint) => {
          seen.entrypoint = entrypoint;
          const result = answer(input, seen.data!, entrypoint, builtins);
          return result === undefined ? [] : [{ result }];
        },
      };
      return policy;
    };
    return { loader, seen };
  }

  const run = (loader: WasmLoader, r: EngineRequest): Promise<EngineOutcome> =>
    evaluateWasm({ wasm: r.bundle.wasm!, input: r.input, data: r.data, nowNs: r.nowNs, deadlineMs: r.deadlineMs, maxHeapMb: 64 }, loader, hostBuiltins(r.nowNs));

  it('evaluates the policy entrypoint with the data and params, capping memory at the heap limit', async () => {
    const { loader, seen } = fake((input, data) => ({ allow: true, input, data }));
    const out = await run(loader, request());
    expect(out).toEqual({ ok: true, value: { allow: true, input: { trails: [] }, data: { limits: { max: 3 }, params: { p: 1 } } } });
    expect(seen.entrypoint).toBe('policy');
    expect(seen.memory).toEqual({ initial: 5, maximum: 1024 });
  });

  it("supplies the host builtins from libs/rego, with time.now_ns() at recorded_at", async () => {
    const { loader } = fake((_i, _d, _e, builtins) => ({
      now: builtins['time.now_ns'](),
      upper: builtins.upper('abc'),
      sprintf: builtins.sprintf('%d-%s', [7, 'x']),
    }));
    const out = await run(loader, request());
    expect(out).toEqual({ ok: true, value: { now: 1795564433672266000n, upper: 'ABC', sprintf: '7-x' } });
  });

  it('classifies failures as the Rego engine does', async () => {
    const broken: WasmLoader = async () => {
      throw new Error('invalid module');
    };
    expect(await run(broken, request())).toEqual({
      ok: false,
      error: { kind: 'policy_compile_error', message: 'policy.wasm: invalid module' },
    });
    const trap = fake(() => {
      throw new Error('memory access out of bounds');
    });
    expect(await run(trap.loader, request())).toMatchObject({ ok: false, error: { kind: 'policy_resource_limit' } });
    const conflict = fake(() => {
      throw new Error('var assignment conflict');
    });
    expect(await run(conflict.loader, request())).toMatchObject({ ok: false, error: { kind: 'policy_runtime_error' } });
    const nothing = fake(() => undefined);
    expect(await run(nothing.loader, request())).toMatchObject({ ok: false, error: { kind: 'policy_output_invalid' } });
  });

  it('refuses a wasm module without a policy entrypoint', async () => {
    const loader: WasmLoader = async () => ({ entrypoints: { other: 0 }, setData: () => undefined, evaluate: () => [{ result: 1 }] });
    expect(await run(loader, request())).toMatchObject({ ok: false, error: { kind: 'policy_output_invalid' } });
  });

  describe('in its worker threads (driven from a plain Node process: piscina cannot run under jest)', () => {
    const loaderModule = path.join(__dirname, '../../../../test/support/wasm-test-loader.ts');
    const drive = (options: object, steps: object[]) => {
      const p = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), path.join(__dirname, '../../../../test/support/drive-wasm-engine.ts')], {
        input: JSON.stringify({ options, steps }),
        encoding: 'utf8',
        env: { ...process.env, TS_NODE_PROJECT: path.join(__dirname, '../../../../tsconfig.json') },
        timeout: 170_000,
      });
      if (p.status !== 0) throw new Error(`driver failed (${p.status}): ${p.stderr}`);
      return JSON.parse(p.stdout) as unknown[];
    };
    const step = (over: object = {}) => ({
      wasm: Buffer.from(SPIN_WASM).toString('base64'),
      input: { trails: [] },
      data: { limits: { max: 3 }, params: { p: 1 } },
      nowNs: '1795564433672266000',
      // A thread's start (here: TypeScript compiled on the fly) counts against its first evaluation's deadline.
      deadlineMs: 60_000,
      ...over,
    });

    it('answers from a thread; stops a policy whose wasm never returns at its deadline; the next runs in a new thread', () => {
      const [first, stuck, next] = drive({ threads: 1, maxHeapMb: 64, niceness: 0, loaderModule, version: '1.10.0' }, [
        step(),
        step({ input: { spin: true }, deadlineMs: 300 }),
        step(),
      ]);
      expect(first).toEqual({
        ok: true,
        value: { allow: true, input: { trails: [] }, data: { limits: { max: 3 }, params: { p: 1 } }, now: { bigint: '1795564433672266000' } },
      });
      expect(stuck).toEqual({ ok: false, error: { kind: 'policy_timeout', message: 'evaluation exceeded its deadline of 300 ms and was stopped' } });
      expect(next).toMatchObject({ ok: true, value: { allow: true } });
    });

    it('loads with the real SDK in its thread, which refuses a module that is not OPA-compiled', () => {
      const [refused] = drive({ threads: 1, maxHeapMb: 64, niceness: 0 }, [step()]);
      expect(refused).toMatchObject({ ok: false, error: { kind: 'policy_compile_error' } });
    });
  });
});
