/**
 * The wasm engine's worker thread: loads the task's `policy.wasm` with the SDK (`@open-policy-agent/opa-wasm`),
 * or with the loader module the engine was given (tests), and evaluates it. The host terminates the thread when
 * the evaluation's deadline passes, which is the only way to stop a wasm call.
 */
import * as os from 'node:os';
import { hostBuiltins } from '../../../../libs/rego/src';
import { evaluateWasm, WasmLoader, WasmTask } from './wasm-evaluation';

export interface WasmWorkerTask extends WasmTask {
  /** absolute path of a module exporting `load: WasmLoader` (default: the SDK's loadPolicy) */
  loaderModule?: string;
  niceness: number;
}

const sdkLoader: WasmLoader = async (wasm, memory, builtins) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@open-policy-agent/opa-wasm') as { loadPolicy: (w: Uint8Array, m: object, b: object) => ReturnType<WasmLoader> };
  return sdk.loadPolicy(wasm, memory, builtins);
};

let niced = false;

export default async function runWasmTask(task: WasmWorkerTask) {
  if (!niced && task.niceness > 0) {
    niced = true;
    try {
      os.setPriority(task.niceness);
    } catch {
      // not permitted here: evaluate at the usual priority
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = task.loaderModule ? (require(task.loaderModule) as { load: WasmLoader }).load : sdkLoader;
  return evaluateWasm(task, load, hostBuiltins(task.nowNs));
}
