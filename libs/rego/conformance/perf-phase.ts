import * as fs from 'fs';
import { parseModule } from '../src/parser/parser';
import { compile } from '../src/index';
const base = fs.readFileSync('/work/shared/policies/release-gate.rego', 'utf8');
const files: Record<string, string> = {};
for (let i = 0; i < 100; i++) files[`p${i}.rego`] = base.replace('package policy', `package policy.p${i}`);
for (let r = 0; r < 4; r++) {
  let t0 = Date.now();
  for (const [n, s] of Object.entries(files)) parseModule(s, n);
  const tp = Date.now() - t0;
  t0 = Date.now();
  compile(files);
  console.log('parse ms', tp, 'compile ms', Date.now() - t0);
}
