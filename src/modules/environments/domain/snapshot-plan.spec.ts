import { evaluateArtifact, evaluationHash } from './artifact-compliance';
import { NextArtifact, OpenRun, planSnapshot } from './snapshot-plan';
import { snapshotEvents } from './snapshot-events';

const fp = (c: string) => c.repeat(64);
const next = (name: string, c: string, instanceCount: number, compliant = true): NextArtifact => {
  const evaluation = evaluateArtifact(fp(c), compliant ? [] : [{ flow_name: 'f', trail_name: 't', template_reference_name: name, git_commit: null, commit_url: null, trail_status: 'NON-COMPLIANT' }], false);
  return { name, fingerprint: fp(c), instanceCount, evaluation, evaluationHash: evaluationHash(evaluation).toString('hex') };
};
const open = (a: NextArtifact): OpenRun => ({
  name: a.name,
  fingerprint: a.fingerprint,
  instanceCount: a.instanceCount,
  evaluationHash: a.evaluationHash,
  compliant: a.evaluation.compliant,
  hasProvenance: a.evaluation.has_provenance,
});

describe('planSnapshot', () => {
  it('continues unchanged runs at no cost; starts, ends and splits the others', () => {
    const before = [next('web', 'a', 2), next('db', 'b', 1), next('old', 'c', 1), next('api', 'd', 1)];
    const after = [next('web', 'a', 2), next('db', 'b', 3), next('new', 'e', 1), next('api', 'd', 1, false)];
    const plan = planSnapshot(before.map(open), after);
    expect(plan.open.map((a) => a.name)).toEqual(['db', 'new', 'api']);
    expect(plan.close.map((r) => r.name).sort()).toEqual(['api', 'db', 'old']);
    expect(plan.started.map((a) => a.name)).toEqual(['new']);
    expect(plan.exited.map((r) => r.name)).toEqual(['old']);
    expect(plan.scaled.map((s) => [s.artifact.name, s.was])).toEqual([['db', 1]]);
    expect(plan.counts).toEqual({ true: 0, false: 1, null: 3 });
    expect(plan.compliant).toBe(false);
  });

  it('an empty report after a full one exits everything; the first report starts everything', () => {
    const first = planSnapshot([], [next('web', 'a', 1)]);
    expect([first.started.length, first.close.length, first.compliant]).toEqual([1, 0, true]);
    const empty = planSnapshot([open(next('web', 'a', 1))], []);
    expect([empty.exited.length, empty.open.length, empty.compliant]).toEqual([1, 0, true]);
  });
});

describe('snapshotEvents', () => {
  const facts = {
    environment: 'prod',
    environmentType: 'K8S',
    logicalEnvironments: [],
    number: 2,
    timestamp: 1,
    htmlUrl: 'u',
    artifactCount: 1,
    instanceCount: 1,
    wasCompliant: true,
  };

  it('scaled only for environments that include scaling; compliance changed only when it changed', () => {
    const plan = planSnapshot([open(next('web', 'a', 1))], [next('web', 'a', 2)]);
    expect(snapshotEvents(plan, { ...facts, includeScaling: false }).map((e) => e.type)).toEqual(['snapshot.created']);
    expect(snapshotEvents(plan, { ...facts, includeScaling: true }).map((e) => e.type)).toEqual(['snapshot.created', 'artifact.scaled']);
    const worse = planSnapshot([open(next('web', 'a', 1))], [next('web', 'a', 1, false)]);
    const events = snapshotEvents(worse, { ...facts, includeScaling: false });
    expect(events.map((e) => e.type)).toEqual(['snapshot.created', 'environment.compliance_changed']);
    expect(events[1].payload).toMatchObject({ compliant: false, was: true });
    expect(snapshotEvents(planSnapshot([], []), { ...facts, includeScaling: false, wasCompliant: null }).map((e) => e.type)).toEqual([
      'snapshot.created',
      'environment.compliance_changed',
    ]);
  });
});
