/** `rego eval` and `rego test` stop with a non-zero exit naming the limit when a protection halts a policy. */
import { BufferIo } from './io';
import { runCli } from './run-cli';
import { makeTree, removeTree } from './temp-dir';

async function cli(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const io = new BufferIo();
  const code = await runCli(args, io, cwd);
  return { code, out: io.stdout, err: io.stderr };
}

describe('rego eval/test and the engine protections', () => {
  let root: string;
  beforeEach(() => {
    root = makeTree({
      'range/p.rego': 'package p\n\nimport rego.v1\n\nbig := [i | some i in numbers.range(1, 200000000)]\n\ndeny if count(big) > 0\n\nallow if not deny\n',
      'cidr/p.rego': 'package q\n\nimport rego.v1\n\ndeny if count(net.cidr_expand("10.0.0.0/8")) > 1000\n\nallow if not deny\n\ntest_allowed if allow\n\ntest_small if count(net.cidr_expand("10.0.0.0/30")) == 4\n',
    });
  });
  afterEach(() => removeTree(root));

  it('eval exits 1 with policy_resource_limit and the limit, and prints no value', async () => {
    const r = await cli(['eval', '-d', 'range', 'data.p.allow'], root);
    expect(r).toEqual({
      code: 1,
      out: '',
      err: 'range/p.rego:5:23: policy_resource_limit: numbers.range: range of 200000000 numbers exceeds the limit of 10000000\n',
    });
  });

  it('test reports the halted test as an error naming the limit, runs the others, and exits 1', async () => {
    const r = await cli(['test', 'cidr'], root);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^cidr\/p\.rego:9: data\.q\.test_allowed: ERROR \([^)]*\): cidr\/p\.rego:5:15: policy_resource_limit: net\.cidr_expand: CIDR 10\.0\.0\.0\/8 expands to 16777216 addresses, above the limit of 4194304\n1 passed, 1 failed\n$/);
  });
});
