import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { AttestationReader } from '../../persistence/attestation.reader';
import { EvidenceStore } from '../../persistence/evidence.store';
import { OpenAttestationEvidenceQuery, OpenedEvidence } from './open-attestation-evidence.query';

@QueryHandler(OpenAttestationEvidenceQuery)
export class OpenAttestationEvidenceHandler implements IQueryHandler<OpenAttestationEvidenceQuery> {
  constructor(
    private readonly reader: AttestationReader,
    private readonly store: EvidenceStore,
  ) {}

  async execute(q: OpenAttestationEvidenceQuery): Promise<OpenedEvidence> {
    const trailId = await this.reader.trailId(q.props.orgId, q.props.flowName, q.props.trailName);
    const attestation = await this.reader.evidenceOf(trailId, q.props.attestationId);
    if (!attestation) {
      throw new NotFoundError(`Attestation '${q.props.attestationId}' not found in trail '${q.props.trailName}' of flow '${q.props.flowName}'`);
    }
    if (!attestation.sha256) throw new NotFoundError('This attestation has no evidence file attached.');
    const stored = await this.store.open(attestation.sha256);
    if (!stored) throw new Error(`evidence blob ${attestation.sha256.toString('hex')} is missing from the store`);
    return { sha256: attestation.sha256.toString('hex'), size: stored.size, chunks: () => stored.chunks() };
  }
}
