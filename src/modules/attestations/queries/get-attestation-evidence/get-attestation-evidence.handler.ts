import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AttestationReader } from '../../persistence/attestation.reader';
import { EvidenceMissingError } from '../../evidence-errors';
import { EvidenceStore } from '../../persistence/evidence.store';
import { attachedEvidence } from '../attached-evidence';
import { EvidenceDownload, GetAttestationEvidenceQuery } from './get-attestation-evidence.query';

@QueryHandler(GetAttestationEvidenceQuery)
export class GetAttestationEvidenceHandler implements IQueryHandler<GetAttestationEvidenceQuery> {
  constructor(
    private readonly reader: AttestationReader,
    private readonly store: EvidenceStore,
  ) {}

  async execute(q: GetAttestationEvidenceQuery): Promise<EvidenceDownload> {
    const attestation = await attachedEvidence(this.reader, q.props);
    // Checked whole before the response begins: a corrupted blob is refused (EvidenceCorruptedError), never served.
    const content = await this.store.fetch(attestation.sha256);
    if (!content) throw new EvidenceMissingError(attestation.sha256.toString('hex'));
    return {
      filename: attestation.filename ?? 'evidence',
      contentType: attestation.contentType ?? 'application/octet-stream',
      size: content.length,
      sha256: attestation.sha256.toString('hex'),
      content,
    };
  }
}
