import { Module } from '@nestjs/common';
import { EvidenceLog } from './evidence-log';
import { EvidenceLogController } from './evidence-log.controller';
import { LogSequencer } from './log-sequencer';
import { LogSigner } from './log-signer';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';
import { SigningKeyRepository } from './persistence/signing-key.repository';
import {
  ConsistencyProofHandler,
  GetCheckpointHandler,
  InclusionProofHandler,
  InclusionProofsHandler,
  ListEntriesHandler,
  ListLogKeysHandler,
  LookupEntryHandler,
} from './queries/log.handlers';

/**
 * The evidence log: one RFC 6962 Merkle log per organization, signed checkpoints, proofs (README.md). Owns
 * `log_pending`, `log_cursors`, `log_entries`, `log_subtrees`, `log_checkpoints` and `log_signing_keys`.
 * Public surface: EvidenceLog (writers append inside their own transaction, or register their kind as a source
 * whose records are their own queue), LogSigner (the signing key, sequencing and checkpoint rounds).
 */
@Module({
  controllers: [EvidenceLogController],
  providers: [
    EvidenceLog,
    EvidenceLogRepository,
    SigningKeyRepository,
    LogSigner,
    LogSequencer,
    GetCheckpointHandler,
    ListEntriesHandler,
    InclusionProofHandler,
    InclusionProofsHandler,
    ConsistencyProofHandler,
    LookupEntryHandler,
    ListLogKeysHandler,
  ],
  exports: [EvidenceLog, LogSigner],
})
export class EvidenceLogModule {}

export { EvidenceLog } from './evidence-log';
export type { LogAppend, LogRef, LogRenderer, LogSource, SourcedEntry } from './evidence-log';
export { LogSigner } from './log-signer';
// Read messages other modules may dispatch on the query bus (the audit package reads the log as its routes do).
export { GetCheckpointQuery, InclusionProofQuery, InclusionProofsQuery, ListEntriesQuery, ListLogKeysQuery, LookupEntryQuery } from './queries/log.queries';
export type { EntryAnswer, KeyAnswer } from './queries/log.queries';
