import type { WasmLoader, WasmPolicy } from '../../src/modules/evaluations/running/wasm-evaluation';

/**
 * A real WebAssembly module whose one function, `spin`, loops forever (`loop br 0 end`): a call into it cannot be
 * interrupted from inside its thread, as with an OPA-compiled policy that runs long.
 */
export const SPIN_WASM = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // types: () -> ()
  0x03, 0x02, 0x01, 0x00, // one function of type 0
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00, // export "spin" = function 0
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b, // body: loop br 0 end end
]);

/**
 * Stands in for the SDK's loader in the wasm engine's worker (no OPA-compiled wasm can be built on this
 * machine): a policy whose `policy` entrypoint answers with its input, data and `time.now_ns()`, or, for an
 * input `{spin: true}`, calls SPIN_WASM's endless loop.
 */
export const load: WasmLoader = async (_wasm, _memory, builtins) => {
  // Node's global WebAssembly (the project's compiler settings carry no typings for it).
  const wasmApi = (globalThis as unknown as { WebAssembly: { Instance: new (m: unknown) => { exports: Record<string, unknown> }; Module: new (b: Uint8Array) => unknown } }).WebAssembly;
  const spin = new wasmApi.Instance(new wasmApi.Module(SPIN_WASM)).exports.spin as () => void;
  let data: object = {};
  const policy: WasmPolicy = {
    entrypoints: { policy: 0 },
    setData: (d) => (data = d),
    evaluate: (input) => {
      if ((input as { spin?: boolean }).spin) spin();
      return [{ result: { allow: true, input, data, now: builtins['time.now_ns']() } }];
    },
  };
  return policy;
};
