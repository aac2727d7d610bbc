import { loadBundle } from '../domain/policy-bundle';
import { EngineRequest } from './policy-engine';
import { WasmEngine, WasmLoader, WasmPolicy } from './wasm-engine';

/**
 * The wasm adapter's contract. No OPA-compiled wasm can be produced on this machine (that takes `opa build`,
 * which is not installable here), so the SDK is stood in for by a loader that records what the adapter gives it
 * and answers as the SDK does; the adapter's own logic (memory cap, data, entrypoint, builtins, error kinds,
 * result shape) is what is tested.
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

  it('evaluates the policy entrypoint with the data and params, capping memory at the heap limit', async () => {
    const { loader, seen } = fake((input, data) => ({ allow: true, input, data }));
    const engine = new WasmEngine({ maxHeapMb: 64 }, loader, '1.10.0');
    const out = await engine.run(request());
    expect(out).toEqual({ ok: true, value: { allow: true, input: { trails: [] }, data: { limits: { max: 3 }, params: { p: 1 } } } });
    expect(seen.entrypoint).toBe('policy');
    expect(seen.memory).toEqual({ initial: 5, maximum: 1024 });
    expect([engine.name, engine.version]).toEqual(['opa-wasm', '1.10.0']);
  });

  it("supplies the host builtins from libs/rego, with time.now_ns() at recorded_at", async () => {
    const { loader } = fake((_i, _d, _e, builtins) => ({
      now: builtins['time.now_ns'](),
      upper: builtins.upper('abc'),
      sprintf: builtins.sprintf('%d-%s', [7, 'x']),
    }));
    const out = await new WasmEngine({ maxHeapMb: 64 }, loader, 'x').run(request());
    expect(out).toEqual({ ok: true, value: { now: 1795564433672266000n, upper: 'ABC', sprintf: '7-x' } });
  });

  it('classifies failures as the Rego engine does', async () => {
    const broken: WasmLoader = async () => {
      throw new Error('invalid module');
    };
    expect(await new WasmEngine({ maxHeapMb: 64 }, broken, 'x').run(request())).toEqual({
      ok: false,
      error: { kind: 'policy_compile_error', message: 'policy.wasm: invalid module' },
    });
    const trap = fake(() => {
      throw new Error('memory access out of bounds');
    });
    expect(await new WasmEngine({ maxHeapMb: 64 }, trap.loader, 'x').run(request())).toMatchObject({ ok: false, error: { kind: 'policy_resource_limit' } });
    const conflict = fake(() => {
      throw new Error('var assignment conflict');
    });
    expect(await new WasmEngine({ maxHeapMb: 64 }, conflict.loader, 'x').run(request())).toMatchObject({ ok: false, error: { kind: 'policy_runtime_error' } });
    const nothing = fake(() => undefined);
    expect(await new WasmEngine({ maxHeapMb: 64 }, nothing.loader, 'x').run(request())).toMatchObject({ ok: false, error: { kind: 'policy_output_invalid' } });
  });

  it('refuses a wasm module without a policy entrypoint', async () => {
    const loader: WasmLoader = async () => ({ entrypoints: { other: 0 }, setData: () => undefined, evaluate: () => [{ result: 1 }] });
    expect(await new WasmEngine({ maxHeapMb: 64 }, loader, 'x').run(request())).toMatchObject({ ok: false, error: { kind: 'policy_output_invalid' } });
  });
});
