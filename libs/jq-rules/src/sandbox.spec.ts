import { JqRulesSandbox } from './sandbox';
import type { RuleSet } from './protocol';

jest.setTimeout(120_000);

const set = (rules: string[], schema: unknown = null, summary: RuleSet['summary'] = []): RuleSet => ({ schema, schemaKey: null, rules, summary });

describe('JqRulesSandbox', () => {
  const sandbox = new JqRulesSandbox({ maxThreads: 1, defaultDeadlineMs: 20_000 });
  afterAll(() => sandbox.close());

  it('judges each rule by real jq: one true passes; false, other values, several values and errors do not', async () => {
    const data = JSON.stringify({ age: 30, tags: ['a', 'b'], scan: { critical: 0 } });
    const answer = await sandbox.assess(
      set(['.age > 21', '.scan.critical == 0 and (.tags | index("b")) != null', '.age < 18', '.age', '.tags[] | length > 0', '.age | error("too old")', 'empty', '.tags.x']),
      data,
    );
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.outcomes.map((o) => o.passed)).toEqual([true, true, false, false, false, false, false, false]);
    const reasons = answer.value.outcomes.map((o) => o.reason);
    expect(reasons[2]).toBe("rule '.age < 18' is false");
    expect(reasons[3]).toBe("rule '.age' yielded 30, not a boolean");
    expect(reasons[4]).toBe("rule '.tags[] | length > 0' yielded 2 values, expected one boolean");
    expect(reasons[5]).toBe("rule '.age | error(\"too old\")' failed: too old");
    expect(reasons[6]).toBe("rule 'empty' yielded 0 values, expected one boolean");
    expect(reasons[7]).toMatch(/^rule '.tags.x' failed: Cannot index array with string \("x"\)/);
  });

  it('evaluates summary expressions beside the rules', async () => {
    const answer = await sandbox.assess(set(['true'], null, [{ name: 'Critical', expression: '.scan.critical' }, { name: 'Bad', expression: '.scan.critical.x' }]), '{"scan":{"critical":3}}');
    expect(answer.ok && answer.value.summary).toEqual([
      { name: 'Critical', value: 3 },
      { name: 'Bad', value: null },
    ]);
  });

  it('a rule that halts jq does not take the other rules with it', async () => {
    const answer = await sandbox.assess(set(['.a == 1', 'halt_error', '.a > 0']), '{"a":1}');
    expect(answer.ok && answer.value.outcomes.map((o) => o.passed)).toEqual([true, false, true]);
  });

  it('validates the data against a JSON Schema and reports where it breaks it', async () => {
    const schema = { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age', 'name'] };
    const answer = await sandbox.assess(set([], schema), '{"age":"old"}');
    expect(answer.ok && answer.value.schemaErrors).toEqual(["/ must have required property 'name'", '/age must be integer']);
    const fits = await sandbox.assess(set([], schema), '{"age":3,"name":"x"}');
    expect(fits.ok && fits.value.schemaErrors).toEqual([]);
  });

  it('checks a rule set without data: schema and rules that do not compile are named', async () => {
    const answer = await sandbox.check(set(['.age > 1', '.age +', 'def f: f; f'], { type: 'nonsense' }, [{ name: 'x', expression: '[' }]));
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.schema).toMatch(/schema is invalid/);
    expect(answer.value.rules.map((r) => r.index)).toEqual([1]);
    expect(answer.value.rules[0].message).toMatch(/syntax error/);
    expect(answer.value.summary.map((r) => r.index)).toEqual([0]);
  });

  it('stops a rule that loops at its deadline, and the next task runs on a fresh worker', async () => {
    const looping = await sandbox.assess(set(['def f: f; f']), '{}', 1500);
    expect(looping).toEqual({ ok: false, code: 'timeout', message: 'the rules ran longer than 1500 ms and were stopped' });
    const after = await sandbox.assess(set(['. == {}']), '{}');
    expect(after.ok && after.value.outcomes[0].passed).toBe(true);
  });
});
