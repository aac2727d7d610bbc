import type { FlowTemplateSpec } from '../../flows/flows.module';
import { evaluateCompliance, ReportedArtifact, SlotAttestation, slotKey } from './compliance';

const template: FlowTemplateSpec = {
  version: 1,
  trail: {
    attestations: [{ name: 'pr', type: 'pull_request' }],
    artifacts: [{ name: 'backend', attestations: [{ name: 'unit-test', type: 'junit' }] }],
  },
};

const att = (name: string, artifactName: string | null, isCompliant = true): SlotAttestation => ({
  id: `${artifactName}-${name}-${isCompliant}`,
  name,
  artifactName,
  type: 'generic',
  isCompliant,
  fields: {},
});
const backend: ReportedArtifact = { id: 'a1', name: 'backend', fingerprint: 'f'.repeat(64) };

describe('slotKey', () => {
  it('is the name for trail slots and <artifact>.<name> for artifact slots', () => {
    expect(slotKey(null, 'pr')).toBe('pr');
    expect(slotKey('backend', 'unit-test')).toBe('backend.unit-test');
  });
});

describe('evaluateCompliance', () => {
  it('is INCOMPLETE while an expected slot or artifact is missing', () => {
    expect(evaluateCompliance(template, [], []).status).toBe('INCOMPLETE');
    expect(evaluateCompliance(template, [att('pr', null), att('unit-test', 'backend')], []).status).toBe('INCOMPLETE');
    expect(evaluateCompliance(template, [att('pr', null)], [backend]).status).toBe('INCOMPLETE');
  });

  it('is COMPLIANT when every expected slot is filled compliantly', () => {
    const c = evaluateCompliance(template, [att('pr', null), att('unit-test', 'backend')], [backend]);
    expect(c.status).toBe('COMPLIANT');
    expect(c.trailSlots.map((s) => [s.key, s.unexpected])).toEqual([['pr', false]]);
    expect(c.artifacts[0].slots.map((s) => [s.key, !!s.attestation])).toEqual([['backend.unit-test', true]]);
  });

  it('is NON-COMPLIANT when any slot, expected or not, is non-compliant, even with others missing', () => {
    expect(evaluateCompliance(template, [att('pr', null, false)], []).status).toBe('NON-COMPLIANT');
    expect(
      evaluateCompliance(template, [att('pr', null), att('unit-test', 'backend'), att('extra', null, false)], [backend]).status,
    ).toBe('NON-COMPLIANT');
  });

  it('marks slots outside the template unexpected, including unexpected artifacts', () => {
    const other: ReportedArtifact = { id: 'a2', name: 'other', fingerprint: 'e'.repeat(64) };
    const c = evaluateCompliance(template, [att('pr', null), att('lint', null), att('scan', 'other')], [backend, other]);
    expect(c.trailSlots.map((s) => [s.key, s.unexpected])).toEqual([
      ['pr', false],
      ['lint', true],
    ]);
    const otherGroup = c.artifacts.find((g) => g.name === 'other')!;
    expect(otherGroup.expected).toBe(false);
    expect(otherGroup.slots.map((s) => [s.key, s.unexpected])).toEqual([['other.scan', true]]);
  });

  it('untemplated: expects nothing, so an empty trail is COMPLIANT and every slot is unexpected', () => {
    expect(evaluateCompliance(null, [], []).status).toBe('COMPLIANT');
    const c = evaluateCompliance(null, [att('a', null)], []);
    expect(c.status).toBe('COMPLIANT');
    expect(c.trailSlots[0].unexpected).toBe(true);
    expect(evaluateCompliance(null, [att('a', null, false)], []).status).toBe('NON-COMPLIANT');
  });

  it('reports keys shared by two slots', () => {
    const dup: FlowTemplateSpec = {
      version: 1,
      trail: {
        attestations: [
          { name: 'pr', type: 'generic' },
          { name: 'pr', type: 'junit' },
        ],
        artifacts: [],
      },
    };
    expect(evaluateCompliance(dup, [], []).duplicateKeys).toEqual(['pr']);
    expect(evaluateCompliance(template, [], []).duplicateKeys).toEqual([]);
  });
});
