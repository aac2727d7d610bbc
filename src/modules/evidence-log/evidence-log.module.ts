import { Module } from '@nestjs/common';
import { EvidenceLog } from './evidence-log';
import { EvidenceLogController } from './evidence-log.controller';
import { LogSigner } from './log-signer';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';
import { SigningKeyRepository } from './persistence/signing-key.repository';
import {
  ConsistencyProofHandler,
  GetCheckpointHandler,
  InclusionProofHandler,
  ListEntriesHandler,
  ListLogKeysHandler,
  LookupEntryHandler,
} from './queries/log.handlers';

/**
 * The evidence log: one RFC 6962 Merkle log per organization, signed checkpoints, proofs (README.md). Owns
 * `log_entries`, `log_subtrees`, `log_checkpoints` and `log_signing_keys`.
 * Public surface: EvidenceLog (writers append inside their own transaction) and LogSigner (the signing key and
 * checkpoint rounds).
 */
@Module({
  controllers: [EvidenceLogController],
  providers: [
    EvidenceLog,
    EvidenceLogRepository,
    SigningKeyRepository,
    LogSigner,
    GetCheckpointHandler,
    ListEntriesHandler,
    InclusionProofHandler,
    ConsistencyProofHandler,
    LookupEntryHandler,
    ListLogKeysHandler,
  ],
  exports: [EvidenceLog, LogSigner],
})
export class EvidenceLogModule {}

export { EvidenceLog } from './evidence-log';
export type { LogAppend } from './evidence-log';
export { LogSigner } from './log-signer';
// Read messages other modules may dispatch on the query bus (the audit package reads the log as its routes do).
export { GetCheckpointQuery, InclusionProofQuery, ListEntriesQuery, ListLogKeysQuery, LookupEntryQuery } from './queries/log.queries';
export type { EntryAnswer, KeyAnswer } from './queries/log.queries';
