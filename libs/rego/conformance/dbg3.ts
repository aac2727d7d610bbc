import * as fs from 'fs';
import { compile } from '../src/index';
const dir = process.argv[2];
const files: Record<string, string> = {};
for (const f of fs.readdirSync(dir)) if (f.endsWith('.rego')) files[f] = fs.readFileSync(dir + '/' + f, 'utf8');
try {
  const t0 = Date.now();
  const b = compile(files);
  const t1 = Date.now();
  const input = fs.existsSync(dir + '/inp.json') ? JSON.parse(fs.readFileSync(dir + '/inp.json', 'utf8')) : {};
  console.log(JSON.stringify(b.evaluate(process.argv[3], { input })).slice(0, 500), 'compile', t1 - t0, 'eval', Date.now() - t1);
} catch (e) { console.log((e as Error).message); }
