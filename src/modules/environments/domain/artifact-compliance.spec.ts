import { complianceBucket, evaluateArtifact, evaluationHash, ProvenanceEntry } from './artifact-compliance';

const FP = 'a'.repeat(64);
const trail = (flow: string, status: ProvenanceEntry['trail_status']): ProvenanceEntry => ({
  flow_name: flow,
  trail_name: 't',
  template_reference_name: 'web',
  git_commit: null,
  commit_url: null,
  trail_status: status,
});

describe('evaluateArtifact', () => {
  it('compliant when every trail that reported it is COMPLIANT', () => {
    expect(evaluateArtifact(FP, [trail('b', 'COMPLIANT'), trail('a', 'COMPLIANT')], true)).toMatchObject({ compliant: true, has_provenance: true, reasons: [] });
    const bad = evaluateArtifact(FP, [trail('a', 'COMPLIANT'), trail('b', 'INCOMPLETE')], false);
    expect(bad).toMatchObject({ compliant: false, reasons: ["trail 't' of flow 'b' is INCOMPLETE"] });
    expect(bad.flows.map((f) => f.flow_name)).toEqual(['a', 'b']);
  });

  it('no provenance is flagged; it fails only where provenance is required; an unknown digest says so', () => {
    expect(evaluateArtifact(FP, [], false)).toMatchObject({ compliant: true, has_provenance: false, reasons: ['no provenance: no trail reported this fingerprint'] });
    expect(evaluateArtifact(FP, [], true).compliant).toBe(false);
    expect(evaluateArtifact('', [], false).reasons[0]).toContain('unknown');
  });

  it('buckets and hashes', () => {
    expect(complianceBucket(evaluateArtifact(FP, [], false))).toBe('null');
    expect(complianceBucket(evaluateArtifact(FP, [], true))).toBe('false');
    expect(complianceBucket(evaluateArtifact(FP, [trail('a', 'COMPLIANT')], true))).toBe('true');
    const one = evaluationHash(evaluateArtifact(FP, [trail('a', 'COMPLIANT'), trail('b', 'COMPLIANT')], false));
    const two = evaluationHash(evaluateArtifact(FP, [trail('b', 'COMPLIANT'), trail('a', 'COMPLIANT')], false));
    expect(one.equals(two)).toBe(true);
    expect(one.equals(evaluationHash(evaluateArtifact(FP, [trail('a', 'COMPLIANT')], false)))).toBe(false);
  });
});
