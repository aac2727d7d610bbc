import { Assessment, AttestationTypeDefinition } from './attestation-type';

/**
 * The type as judged for one request: its `assess` verdict stands in for `isCompliant(data)`, and the
 * assessment's summary and reasons join the `data` the type stores. The write path is unchanged by it.
 */
export function withAssessment<T extends object>(type: AttestationTypeDefinition<T>, assessment: Assessment): AttestationTypeDefinition<T> {
  const judged: AttestationTypeDefinition<T> = Object.create(type);
  if (assessment.attestationType) Object.defineProperty(judged, 'name', { value: assessment.attestationType });
  judged.isCompliant = () => assessment.isCompliant;
  judged.toRecord = (data: T) => {
    const record = type.toRecord(data);
    const extra: Record<string, unknown> = { ...record.extra, ...assessment.summary };
    if (assessment.reasons?.length) extra.compliance_reasons = assessment.reasons;
    return { ...record, extra };
  };
  return judged;
}
