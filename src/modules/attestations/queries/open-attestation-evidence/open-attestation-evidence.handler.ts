import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AttestationReader } from '../../persistence/attestation.reader';
import { EvidenceMissingError } from '../../evidence-errors';
import { EvidenceStore } from '../../persistence/evidence.store';
import { attachedEvidence } from '../attached-evidence';
import { OpenAttestationEvidenceQuery, OpenedEvidence } from './open-attestation-evidence.query';

@QueryHandler(OpenAttestationEvidenceQuery)
export class OpenAttestationEvidenceHandler implements IQueryHandler<OpenAttestationEvidenceQuery> {
  constructor(
    private readonly reader: AttestationReader,
    private readonly store: EvidenceStore,
  ) {}

  async execute(q: OpenAttestationEvidenceQuery): Promise<OpenedEvidence> {
    const attestation = await attachedEvidence(this.reader, q.props);
    const stored = await this.store.open(attestation.sha256);
    if (!stored) throw new EvidenceMissingError(attestation.sha256.toString('hex'));
    return { sha256: attestation.sha256.toString('hex'), size: stored.size, chunks: () => stored.chunks() };
  }
}
