import { parsePolicy } from './policy-spec';
import { ArtifactEvidence, decide, evaluatePolicy, EvidenceTrail } from './rule-evaluation';

const V1 = '_schema: https://docs.kosli.com/schemas/policy/v1\n';
const policy = (yaml: string, name = 'p') => ({ name, version: 1, spec: parsePolicy(V1 + yaml) });
const trail = (over: Partial<EvidenceTrail> = {}): EvidenceTrail => ({ flow: 'runner', trail: 't1', flowTags: {}, status: 'COMPLIANT', attestations: [], ...over });
const artifact = (trails: EvidenceTrail[], name = 'web'): ArtifactEvidence => ({ name, fingerprint: 'f'.repeat(64), trails });
const failing = (e: ReturnType<typeof evaluatePolicy>) => e.rule_evaluations.filter((r) => !r.ignored && r.satisfied === false).flatMap((r) => r.reasons);

describe('rule evaluation', () => {
  it('provenance: required, waived by an exception that holds for the artifact', () => {
    const p = policy('artifacts:\n  provenance:\n    required: true\n    exceptions:\n      - if: ${{ matches(artifact.name, "^datadog:.*") }}\n');
    expect(failing(evaluatePolicy(p, artifact([])))).toEqual(['no provenance: no trail reported this artifact']);
    const waived = evaluatePolicy(p, artifact([], 'datadog:agent'));
    expect(waived.status).toBe('COMPLIANT');
    expect(waived.rule_evaluations[0]).toMatchObject({ ignored: true, satisfied: null, resolutions: [{ type: 'rule_not_applicable', context: { exception: 0 } }] });
    expect(evaluatePolicy(p, artifact([trail()])).status).toBe('COMPLIANT');
  });

  it('trail-compliance: every trail that reported the artifact, each named when it is not compliant', () => {
    const p = policy('artifacts:\n  trail-compliance:\n    required: true\n');
    expect(evaluatePolicy(p, artifact([trail()])).status).toBe('COMPLIANT');
    const e = evaluatePolicy(p, artifact([trail(), trail({ trail: 't2', status: 'INCOMPLETE' })]));
    expect(failing(e)).toEqual(["trail 't2' of flow 'runner' is INCOMPLETE"]);
    expect(e.rule_evaluations[0].resolutions).toContainEqual({ type: 'non_compliant_in_trail', context: { flow_name: 'runner', trail_name: 't2', artifact_status: 'INCOMPLETE' } });
    expect(failing(evaluatePolicy(p, artifact([])))).toEqual(['no provenance: the artifact is in no trail, so in no compliant trail']);
  });

  it('attestations: type and name, *, custom:, must be compliant, for_control', () => {
    const p = policy(
      'artifacts:\n  attestations:\n    - name: unit-test\n      type: junit\n    - name: dependency-scan\n      type: "*"\n    - name: "*"\n      type: custom:coverage\n    - type: decision\n      for_control: RCTL-043\n',
    );
    const none = evaluatePolicy(p, artifact([trail()]));
    expect(failing(none)).toEqual([
      "missing attestation 'unit-test' of type 'junit' in trail 't1' of flow 'runner'",
      "missing attestation 'dependency-scan' in trail 't1' of flow 'runner'",
      "missing an attestation of type 'custom:coverage' in trail 't1' of flow 'runner'",
      "missing a decision for control 'RCTL-043' in trail 't1' of flow 'runner'",
    ]);
    expect(none.rule_evaluations[3].resolutions[0]).toEqual({ type: 'missing_attestation', context: { flow_name: 'runner', trail_name: 't1', for_control: 'RCTL-043' } });
    const all = evaluatePolicy(
      p,
      artifact([
        trail({
          attestations: [
            { name: 'unit-test', type: 'junit', compliant: true, control: null },
            { name: 'dependency-scan', type: 'generic', compliant: true, control: null },
            { name: 'cov', type: 'coverage', compliant: true, control: null },
            { name: 'review', type: 'decision', compliant: true, control: 'RCTL-043' },
          ],
        }),
      ]),
    );
    expect(all.status).toBe('COMPLIANT');
    const wrongType = evaluatePolicy(p, artifact([trail({ attestations: [{ name: 'unit-test', type: 'generic', compliant: true, control: null }] })]));
    expect(failing(wrongType)[0]).toBe("missing attestation 'unit-test' of type 'junit' in trail 't1' of flow 'runner'");
    const bad = evaluatePolicy(p, artifact([trail({ attestations: [{ name: 'review', type: 'decision', compliant: false, control: 'RCTL-043' }] })]));
    expect(failing(bad)).toContain("a decision for control 'RCTL-043' is not compliant in trail 't1' of flow 'runner'");
    const lenient = policy('artifacts:\n  attestations:\n    - name: unit-test\n      type: junit\n      must_be_compliant: false\n');
    expect(evaluatePolicy(lenient, artifact([trail({ attestations: [{ name: 'unit-test', type: 'junit', compliant: false, control: null }] })])).status).toBe('COMPLIANT');
  });

  it('attestations: if decides per trail, by the flow of that trail', () => {
    const p = policy('artifacts:\n  attestations:\n    - if: ${{ flow.tags.risk-level == "high" }}\n      name: unit-tests\n      type: junit\n');
    expect(evaluatePolicy(p, artifact([trail({ flowTags: { 'risk-level': 'low' } })])).rule_evaluations[0]).toMatchObject({ ignored: true, satisfied: null });
    expect(failing(evaluatePolicy(p, artifact([trail({ flowTags: { 'risk-level': 'high' } })])))).toEqual([
      "missing attestation 'unit-tests' of type 'junit' in trail 't1' of flow 'runner'",
    ]);
    // No provenance: no flow, so the condition is false and the rule does not apply.
    expect(evaluatePolicy(p, artifact([])).status).toBe('COMPLIANT');
  });

  it('an if that does not evaluate to a boolean fails the rule with the error and its column, never throws', () => {
    const p = policy('artifacts:\n  attestations:\n    - if: ${{ flow.name }}\n      name: x\n      type: generic\n');
    const e = evaluatePolicy(p, artifact([trail()]));
    expect(e.status).toBe('NON-COMPLIANT');
    expect(e.rule_evaluations[0].resolutions[0]).toMatchObject({ type: 'expression_error', context: { error: 'the expression yields string, not true or false (at column 5)' } });
  });

  it('decide: every policy must pass; an allow-listing makes the artifact compliant and says so', () => {
    const a = policy('artifacts:\n  provenance:\n    required: true\n', 'a');
    const b = policy('artifacts:\n  trail-compliance:\n    required: true\n', 'b');
    const d = decide([a, b], artifact([]), null);
    expect(d.compliant).toBe(false);
    expect(d.reasons).toEqual(["policy 'a' v1: no provenance: no trail reported this artifact", "policy 'b' v1: no provenance: the artifact is in no trail, so in no compliant trail"]);
    const listing = { artifact_name: 'web', fingerprint: 'f'.repeat(64), description: 'hotfix', user_name: 'ann', timestamp: 1 };
    const allowed = decide([a, b], artifact([]), listing);
    expect(allowed.compliant).toBe(true);
    expect(allowed.allow_listing).toEqual(listing);
    expect(allowed.reasons.at(-1)).toBe('allowed in this environment by ann: hotfix');
  });
});
