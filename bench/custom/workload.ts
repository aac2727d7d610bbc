/**
 * The custom attestation benchmark's workload (bench/custom/run.ts, bench/custom/jq-floor.ts): a type's JSON
 * Schema and 10 jq rules, and a test report of about `kb` KB that passes all of them.
 */
import { randomBytes } from 'node:crypto';

export const RULES = [
  '.summary.failed == 0',
  '.summary.total > 0',
  '(.tests | length) == .summary.total',
  '[.tests[] | select(.status == "failed")] | length == 0',
  '[.tests[].duration_ms] | add < 10000000',
  '.tool.name == "bench-runner"',
  '.coverage.lines >= 80',
  'all(.tests[]; .name | startswith("test_"))',
  '(.tests | map(.suite) | unique | length) <= 50',
  '.summary.skipped < (.summary.total / 10)',
];

export const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['summary', 'tests', 'tool', 'coverage'],
  properties: {
    summary: { type: 'object', required: ['total', 'failed', 'skipped'], properties: { total: { type: 'integer' }, failed: { type: 'integer' }, skipped: { type: 'integer' } } },
    tests: {
      type: 'array',
      items: { type: 'object', required: ['name', 'suite', 'status', 'duration_ms'], properties: { name: { type: 'string' }, status: { enum: ['passed', 'failed', 'skipped'] }, duration_ms: { type: 'number' } } },
    },
    tool: { type: 'object', properties: { name: { type: 'string' } } },
    coverage: { type: 'object', properties: { lines: { type: 'number' } } },
  },
};

/** A test report of about `kb` KB as JSON text. */
export function report(kb: number): unknown {
  const tests: unknown[] = [];
  const doc = { tool: { name: 'bench-runner', version: '1.0.0' }, coverage: { lines: 91.5 }, summary: { total: 0, failed: 0, skipped: 0 }, tests };
  let size = 200;
  for (let i = 0; size < kb * 1000; i++) {
    const t = { name: `test_case_${i}_${randomBytes(4).toString('hex')}`, suite: `suite_${i % 40}`, status: 'passed', duration_ms: (i % 97) + 0.5, file: `src/module_${i % 200}/file_${i % 13}.ts` };
    size += JSON.stringify(t).length + 1;
    tests.push(t);
  }
  doc.summary.total = tests.length;
  return doc;
}

