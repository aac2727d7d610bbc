import { withAssessment } from './assessed-type';
import { AttestationTypeDefinition } from './attestation-type';

class Data {
  name = 'unit-test';
  claimed = true;
}

const type: AttestationTypeDefinition<Data> = {
  name: 'example',
  schemaVersion: 1,
  dataClass: Data,
  acceptsAttachment: true,
  isCompliant: (data) => data.claimed,
  toRecord: (data) => ({ attestationName: data.name, extra: { kept: 1 } }),
};

describe('withAssessment', () => {
  it('lets the evidence decide, whatever the data claimed', () => {
    const judged = withAssessment(type, { isCompliant: false, reasons: ['2 tests failed'], summary: { failures: 2 } });
    expect(judged.isCompliant(new Data())).toBe(false);
    expect(judged.toRecord(new Data())).toEqual({
      attestationName: 'unit-test',
      extra: { kept: 1, failures: 2, compliance_reasons: ['2 tests failed'] },
    });
    expect(judged.name).toBe('example');
    expect(judged.dataClass).toBe(Data);
  });

  it('leaves the type itself unchanged', () => {
    withAssessment(type, { isCompliant: false });
    expect(type.isCompliant(new Data())).toBe(true);
    expect(type.toRecord(new Data()).extra).toEqual({ kept: 1 });
  });

  it('records the attestation type the assessment names (a family such as custom:<name>), the type keeping its own', () => {
    const judged = withAssessment(type, { isCompliant: true, attestationType: 'custom:person' });
    expect(judged.name).toBe('custom:person');
    expect(type.name).toBe('example');
  });
});
