import { Query } from '@nestjs/cqrs';

export interface EvidenceDownload {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  chunks: AsyncIterable<Buffer>;
}

export class GetAttestationEvidenceQuery extends Query<EvidenceDownload> {
  constructor(readonly orgId: string, readonly flowName: string, readonly trailName: string, readonly attestationId: string) {
    super();
  }
}
