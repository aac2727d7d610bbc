// quick local probe: compile time of a 100-file bundle
import * as fs from 'fs';
import { compile } from '../src/index';
const base = fs.readFileSync('/work/shared/policies/release-gate.rego', 'utf8');
const files: Record<string, string> = {};
for (let i = 0; i < 100; i++) files[`p${i}.rego`] = base.replace('package policy', `package policy.p${i}`);
for (let r = 0; r < 5; r++) {
  const t0 = Date.now();
  compile(files);
  console.log('compile ms', Date.now() - t0);
}
