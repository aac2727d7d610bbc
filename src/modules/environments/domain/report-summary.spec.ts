import { artifactKey, instancesByArtifact, ReportedItem, summarizeReport } from './report-summary';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const item = (digests: Record<string, string>, startedAt = 1, context: Record<string, unknown> | null = null): ReportedItem => ({ digests, startedAt, context });

describe('summarizeReport', () => {
  it('counts instances per (name, digest), sorted, whatever the order of items and entries', () => {
    const one = summarizeReport([item({ web: A, db: B }), item({ web: A })]);
    const two = summarizeReport([item({ web: A }), item({ db: B, web: A })]);
    expect(one.artifacts).toEqual([
      { name: 'db', fingerprint: B, instanceCount: 1 },
      { name: 'web', fingerprint: A, instanceCount: 2 },
    ]);
    expect(one.instanceCount).toBe(3);
    expect(two.setHash.equals(one.setHash)).toBe(true);
    expect(two.scaleHash.equals(one.scaleHash)).toBe(true);
  });

  it('the set hash ignores counts and everything else an item carries; the scale hash does not ignore counts', () => {
    const base = summarizeReport([item({ web: A }, 1, { pod: 'x' })]);
    const moved = summarizeReport([item({ web: A }, 99, { pod: 'y' })]);
    const scaled = summarizeReport([item({ web: A }), item({ web: A })]);
    expect(moved.setHash.equals(base.setHash) && moved.scaleHash.equals(base.scaleHash)).toBe(true);
    expect(scaled.setHash.equals(base.setHash)).toBe(true);
    expect(scaled.scaleHash.equals(base.scaleHash)).toBe(false);
  });

  it('names are data: no two different sets share a hash however the names are spelled', () => {
    const hashes = [
      summarizeReport([item({ 'a","b': A })]),
      summarizeReport([item({ a: A, b: A })]),
      summarizeReport([item({ 'a\nb': A })]),
      summarizeReport([item({ web: A })]),
      summarizeReport([item({ web: B })]),
      summarizeReport([item({ web: '' })]),
      summarizeReport([]),
    ].map((s) => s.setHash.toString('hex'));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('keeps each instance, in report order; keys are 32 bytes whatever the name', () => {
    const instances = instancesByArtifact([item({ web: A }, 1, { pod: 'p1' }), item({ web: A, db: B }, 2, { pod: 'p2' })]);
    expect(instances.get(JSON.stringify(['web', A]))).toEqual([
      { started_at: 1, context: { pod: 'p1' } },
      { started_at: 2, context: { pod: 'p2' } },
    ]);
    expect(artifactKey('x'.repeat(10_000), A)).toHaveLength(32);
  });
});
