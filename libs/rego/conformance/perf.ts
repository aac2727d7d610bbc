// quick local perf probe (not part of the runner)
import * as fs from 'fs';
import { compile } from '../src/index';
const src = fs.readFileSync(process.argv[2] ?? '/work/shared/policies/release-gate.rego', 'utf8');
const trails = [];
for (let t = 0; t < 100; t++) {
  const atts: Record<string, unknown> = {};
  for (let a = 0; a < 20; a++) atts['att' + a] = { status: a % 7 === 0 ? 'MISSING' : 'COMPLETE', is_compliant: a % 5 !== 0, created_at: 1700000000 + a, unexpected: a % 11 === 0, attestation_type: 'junit' + (a % 3) };
  trails.push({ flow_name: 'f' + (t % 5), trail_name: 't' + t, compliance_status: { attestations_statuses: atts, artifacts_statuses: { art: { attestations_statuses: { x: { status: 'COMPLETE', is_compliant: true, created_at: 1700000000 } } } } } });
}
const text = JSON.stringify({ trails });
const b = compile({ 'p.rego': src }, {});
const impls = { 'time.now_ns': () => 1700000000000000000 as unknown as never };
let best = Infinity, bestParse = Infinity;
for (let i = 0; i < Number(process.env.ITER ?? 30); i++) {
  const t0 = process.hrtime.bigint();
  const input = JSON.parse(text);
  const t1 = process.hrtime.bigint();
  const r = b.evalValue(process.argv[3] ?? 'data.policy', { input, builtinImpls: impls });
  const t2 = process.hrtime.bigint();
  if (i === 0) console.log(JSON.stringify(r.value).slice(0, 300));
  best = Math.min(best, Number(t2 - t1) / 1e6); bestParse = Math.min(bestParse, Number(t1 - t0) / 1e6);
}
console.log('input bytes', text.length, 'parse ms', bestParse.toFixed(2), 'eval ms', best.toFixed(2));
