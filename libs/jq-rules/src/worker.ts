/**
 * The rules worker: validates attestation data against a JSON Schema (ajv) and runs jq rules (jq compiled to
 * WebAssembly). Runs in a worker thread with a heap cap; the host terminates it when a task's deadline passes,
 * so a schema pattern that backtracks or a rule that loops stops with its thread. jq's own heap is bounded by
 * its build (256 MB); a rule that exhausts it aborts the jq instance, which is then loaded again.
 */
import { parentPort } from 'worker_threads';
import Ajv, { ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import { Jq, loadJq } from 'jq-wasm';
import { combinedProgram, compileOnly, judgeRule, readCombined, summaryValue, wrapRule } from './program';
import type { AssessResult, CheckResult, RuleSet, WorkerReply, WorkerTask } from './protocol';

const MAX_SCHEMA_ERRORS = 20;
const MAX_CACHED_SCHEMAS = 64;

let jqInstance: Promise<Jq> | null = null;
const jq = (): Promise<Jq> => (jqInstance ??= loadJq());

const validators = new Map<string, ValidateFunction>();

function ajvFor(schema: unknown): Ajv {
  const dialect = typeof schema === 'object' && schema !== null ? String((schema as { $schema?: unknown }).$schema ?? '') : '';
  // strict: false: keywords and formats ajv does not know are ignored rather than refused, as most validators do.
  const options = { allErrors: true, strict: false, logger: false as const };
  if (dialect.includes('2020-12')) return new Ajv2020(options);
  if (dialect.includes('2019-09')) return new Ajv2019(options);
  return new Ajv(options);
}

function validatorOf(schema: unknown, key: string | null): ValidateFunction {
  const cached = key ? validators.get(key) : undefined;
  if (cached) return cached;
  if (typeof schema !== 'object' && typeof schema !== 'boolean') throw new Error('a JSON Schema is an object (or a boolean)');
  const validate = ajvFor(schema).compile(schema as object);
  if (key) {
    if (validators.size >= MAX_CACHED_SCHEMAS) validators.delete(validators.keys().next().value as string);
    validators.set(key, validate);
  }
  return validate;
}

/** jq's message without its `jq: error ...:` prefix lines' noise. */
function jqMessage(stderr: string): string {
  return stderr.replace(/\s+/g, ' ').replace(/ jq: \d+ compile errors?$/, '').trim();
}

async function runJq(input: string, program: string, flags: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const instance = await jq();
  try {
    return instance.raw(input, program, flags);
  } catch (e) {
    // The WebAssembly instance aborted (out of memory): it cannot be used again.
    jqInstance = null;
    return { stdout: '', stderr: `jq stopped: ${(e as Error).message}`, exitCode: -1 };
  }
}

async function check(set: RuleSet): Promise<CheckResult> {
  const result: CheckResult = { schema: null, rules: [], summary: [] };
  if (set.schema !== null) {
    try {
      validatorOf(set.schema, null);
    } catch (e) {
      result.schema = (e as Error).message;
    }
  }
  const compile = async (expression: string): Promise<string | null> => {
    const r = await runJq('null', compileOnly(expression), ['-c']);
    return r.exitCode === 0 ? null : jqMessage(r.stderr) || `jq exited with ${r.exitCode}`;
  };
  for (const [index, rule] of set.rules.entries()) {
    const message = await compile(rule);
    if (message) result.rules.push({ index, message });
  }
  for (const [index, entry] of set.summary.entries()) {
    const message = await compile(entry.expression);
    if (message) result.summary.push({ index, message });
  }
  return result;
}

async function assess(set: RuleSet, dataText: string): Promise<AssessResult> {
  const schemaErrors: string[] = [];
  if (set.schema !== null) {
    const validate = validatorOf(set.schema, set.schemaKey);
    if (!validate(JSON.parse(dataText))) {
      for (const err of (validate.errors ?? []).slice(0, MAX_SCHEMA_ERRORS)) {
        schemaErrors.push(`${err.instancePath || '/'} ${err.message ?? 'is not valid'}`);
      }
    }
  }
  if (!set.rules.length && !set.summary.length) return { schemaErrors, outcomes: [], summary: [] };
  const combined = await runJq(dataText, combinedProgram(set.rules, set.summary), ['-c']);
  const read = combined.exitCode === 0 ? readCombined(combined.stdout, set.rules, set.summary) : null;
  if (read) return { schemaErrors, ...read };
  // A rule stopped jq itself (halt, halt_error, resources): run each alone so the others still count.
  const one = async (expression: string): Promise<unknown> => {
    const r = await runJq(dataText, wrapRule(expression), ['-c']);
    if (r.exitCode !== 0) return [{ e: jqMessage(r.stderr) || `jq exited with ${r.exitCode}` }];
    try {
      return JSON.parse(r.stdout);
    } catch {
      return null;
    }
  };
  const outcomes = [];
  for (const rule of set.rules) outcomes.push(judgeRule(rule, await one(rule)));
  const summary = [];
  for (const entry of set.summary) summary.push(summaryValue(entry, await one(entry.expression)));
  return { schemaErrors, outcomes, summary };
}

// Ready once jq is loaded, so that no task's deadline pays for the start of its thread.
void jq().then(
  () => parentPort?.postMessage({ ready: true }),
  (e: Error) => {
    throw e;
  },
);

parentPort?.on('message', (task: WorkerTask) => {
  const reply = async (): Promise<WorkerReply> => {
    try {
      if (task.kind === 'check') return { id: task.id, ok: true, check: await check(task.set) };
      return { id: task.id, ok: true, assess: await assess(task.set, task.dataText) };
    } catch (e) {
      return { id: task.id, ok: false, message: (e as Error).message ?? String(e) };
    }
  };
  void reply().then((r) => parentPort!.postMessage(r));
});
