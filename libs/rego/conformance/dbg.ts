import { compile } from '../src/index';
const [mod, query, input] = [process.argv[2], process.argv[3], process.argv[4]];
try {
  const b = compile({ 'test-0.rego': mod });
  const r = b.evaluate(query, { input: input ? JSON.parse(input) : undefined, data: process.argv[5] ? JSON.parse(process.argv[5]) : {} });
  console.log(JSON.stringify(r));
} catch (e) { console.log((e as Error).message); }
