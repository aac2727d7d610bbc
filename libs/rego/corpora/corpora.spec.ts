/**
 * Real-world suites inside `npm test`, when their repositories are present (REGO_CORPORA, else
 * `../shared/rego-corpora` beside the repository; see run.ts): every suite found must do at least as well as
 * suites.json records, with no failure outside its expectedFailures and none of those passing. All suites take a
 * few seconds; without the folder the spec is skipped with one line, as the conformance spec is.
 */
import * as fs from 'fs';
import { defaultCorporaDir, judge, loadSuites, locateSuite, runSuite } from './run';

const dir = defaultCorporaDir();
const suites = fs.existsSync(dir) ? loadSuites().map((s) => ({ suite: s, root: locateSuite(s, dir) })) : [];
const present = suites.filter((s) => s.root !== undefined);

if (present.length === 0) {
  process.stdout.write(`Rego corpora: skipped, no policy suites under ${dir} (set REGO_CORPORA to the folder holding them; see libs/rego/README.md)\n`);
}

jest.setTimeout(120_000);

(present.length ? describe : describe.skip)('Rego engine on real-world policy suites', () => {
  it.each(present.map((s) => [s.suite.name, s] as const))('%s passes every test it passed when recorded', async (_name, s) => {
    const r = await runSuite(s.suite, s.root!);
    const v = judge(r);
    expect(r.errors).toEqual([]);
    expect(v.unexpected.map((o) => `${o.key}: ${o.detail}`)).toEqual([]);
    expect(v.fixed).toEqual([]);
    expect(r.passed).toBeGreaterThanOrEqual(s.suite.expected.passed);
  });
});
