/**
 * Test driver: runs wasm evaluations on a WasmEngine in a plain Node process and prints the outcomes as JSON
 * (BigInts as `{"bigint": "<digits>"}`). Its spec uses it because piscina cannot run under jest: jest's module
 * sandbox has its own `Object`, so piscina never sees a READY message from a thread it starts on demand or in
 * place of a terminated one (libs/rego/src/sandbox/fixtures/drive-sandbox.ts says the same for the Rego
 * sandbox).
 * stdin: {"options": WasmEngineOptions, "steps": [{"wasm": base64, "input", "data", "nowNs": digits, "deadlineMs"}]}
 */
import { loadBundle } from '../../src/modules/evaluations/domain/policy-bundle';
import { WasmEngine, WasmEngineOptions } from '../../src/modules/evaluations/running/wasm-engine';

interface Step {
  wasm: string;
  input: unknown;
  data: Record<string, unknown>;
  nowNs: string;
  deadlineMs: number;
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const { options, steps } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { options: WasmEngineOptions; steps: Step[] };
  const engine = new WasmEngine(options);
  const out: unknown[] = [];
  try {
    for (const step of steps) {
      const bundle = loadBundle({ 'policy.wasm': step.wasm });
      out.push(
        await engine.run({ bundle, input: step.input, inputJson: JSON.stringify(step.input), data: step.data, nowNs: BigInt(step.nowNs), deadlineMs: step.deadlineMs }),
      );
    }
  } finally {
    await engine.close();
  }
  process.stdout.write(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? { bigint: v.toString() } : v)));
}

main().catch((e) => {
  process.stderr.write(String((e as Error)?.stack ?? e));
  process.exit(1);
});
