import * as fs from 'fs';
import { compile } from '../src/index';
const dir = process.argv[2];
const files: Record<string, string> = {};
for (const f of fs.readdirSync(dir)) if (f.endsWith('.rego')) files[f] = fs.readFileSync(dir + '/' + f, 'utf8');
try {
  const t0 = Date.now();
  const b = compile(files);
  console.log('compiled', Object.keys(files).length, 'files in', Date.now() - t0, 'ms');
  const r = b.evaluate(process.argv[3] ?? 'x = data', { input: {} });
  console.log(JSON.stringify(r).slice(0, 1500));
} catch (e) { console.log((e as Error).message); }
