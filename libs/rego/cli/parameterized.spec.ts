/** Parameterized tests (`test_name[case] if { ... }`): one test with a sub-result per case, as `opa test` (>= 1.2) runs them. */
import { BufferIo } from './io';
import { runCli } from './run-cli';
import { makeTree, removeTree } from './temp-dir';
import { discoverTests } from './discover-tests';

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = new BufferIo();
  const code = await runCli(args, io, cwd);
  return { code, out: io.stdout, err: io.stderr };
}

const TESTS = `package p_test

import rego.v1

cases := [
	{"note": "empty + empty", "a": [], "b": [], "exp": []},
	{"note": "one + one", "a": [1], "b": [2], "exp": [1, 2]},
	{"note": "reversed", "a": [1], "b": [2], "exp": [2, 1]},
]

test_concat[tc.note] if {
	some tc in cases
	act := array.concat(tc.a, tc.b)
	act == tc.exp
}

test_positive[note] if {
	some note, want in {"a": 1, "b": 2}
	want > 0
}

test_grid[x][y] if {
	some x in ["p", "q"]
	some y in [1, 2]
	x != "q"
}

test_numbers[n] if {
	some n in [1, 2]
	n < 5
}

test_none[tc] if {
	some tc in []
}

test_plain if true
`;

const strip = (out: string) => out.replace(/ \([^)]*(s|µs)\)/g, '');

describe('rego test: parameterized tests', () => {
  let root: string;
  beforeEach(() => {
    root = makeTree({ 'p_test.rego': TESTS, 'v0/old_test.rego': 'package old\n\ntest_set[x] { x := 1 }\n\ntest_ok { true }\n' });
  });
  afterEach(() => removeTree(root));

  it('are discovered beside plain tests', () => {
    const tests = discoverTests({ 'p_test.rego': TESTS });
    expect(tests.map((t) => [t.ref, !!t.parameterized])).toEqual([
      ['data.p_test.test_concat', true],
      ['data.p_test.test_positive', true],
      ['data.p_test.test_grid', true],
      ['data.p_test.test_numbers', true],
      ['data.p_test.test_none', true],
      ['data.p_test.test_plain', false],
    ]);
  });

  it('report each case; a failing case fails its test, an empty table passes', async () => {
    const r = await cli(['test', '-v', 'p_test.rego'], root);
    expect(r.code).toBe(1);
    expect(strip(r.out)).toBe(
      [
        'p_test.rego:11: data.p_test.test_concat: FAIL',
        '  empty + empty: PASS',
        '  one + one: PASS',
        '  reversed: FAIL',
        'p_test.rego:17: data.p_test.test_positive: PASS',
        '  a: PASS',
        '  b: PASS',
        'p_test.rego:22: data.p_test.test_grid: FAIL',
        '  p: PASS',
        '    1: PASS',
        '    2: PASS',
        '  q: FAIL',
        '    1: FAIL',
        '    2: FAIL',
        'p_test.rego:28: data.p_test.test_numbers: PASS',
        '  1: PASS',
        '  2: PASS',
        'p_test.rego:33: data.p_test.test_none: PASS',
        'p_test.rego:37: data.p_test.test_plain: PASS',
        '4 passed, 2 failed',
        '',
      ].join('\n'),
    );
  });

  it('without -v only failing tests are listed, with their cases; --run selects by test name', async () => {
    const r = await cli(['test', 'p_test.rego', '--run', 'concat|positive'], root);
    expect([r.code, strip(r.out)]).toEqual([1, 'p_test.rego:11: data.p_test.test_concat: FAIL\n  empty + empty: PASS\n  one + one: PASS\n  reversed: FAIL\n1 passed, 1 failed\n']);
    expect((await cli(['test', 'p_test.rego', '--run', 'positive'], root)).code).toBe(0);
  });

  it('a v0 `test_x[k] { ... }` is a partial set, not true: it fails as in OPA', async () => {
    const r = await cli(['test', '--v0-compatible', 'v0'], root);
    expect([r.code, strip(r.out)]).toEqual([1, 'v0/old_test.rego:3: data.old.test_set: FAIL\n1 passed, 1 failed\n']);
  });
});
