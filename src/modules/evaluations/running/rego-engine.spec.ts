import * as fs from 'node:fs';
import * as os from 'node:os';
import { loadBundle } from '../domain/policy-bundle';
import { RegoEngine } from './rego-engine';

describe('RegoEngine', () => {
  const bundle = loadBundle({ 'p.rego': 'package policy\n\nimport rego.v1\n\nallow if input.trail.name == "t0"\n' });
  const request = () => ({ bundle, input: {}, inputJson: '{"trail":{"name":"t0"}}', data: {}, nowNs: 0n, deadlineMs: 10_000 });
  const engine = new RegoEngine({ threads: 2, maxHeapMb: 128, deadlineMs: 10_000, niceness: 7 });
  afterAll(() => engine.close());

  it('starts no thread before the first evaluation, then keeps all of them, and says where its time went', async () => {
    expect(engine.threads).toBe(0);
    const first = await engine.run(request());
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value).toEqual({ allow: true });
    expect(Object.keys(first.timings!).sort()).toEqual(['compileMs', 'evaluateMs', 'handOffMs', 'parseMs']);
    expect(first.timings!.compileMs).toBeGreaterThan(0);
    // Threads that came and went under load each loaded the engine and compiled their bundles again.
    expect(engine.threads).toBe(2);
    await Promise.all([engine.run(request()), engine.run(request()), engine.run(request())]);
    expect(engine.threads).toBe(2);
  });

  it('runs its threads at the configured niceness, and leaves the rest of the process as it was', () => {
    // Linux: each thread of this process, with its niceness (field 19 of its stat line)
    const niceness = fs.readdirSync('/proc/self/task').map((tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
    expect(niceness.filter((n) => n === 7)).toHaveLength(2);
    expect(os.getPriority()).toBe(0);
  });
});
