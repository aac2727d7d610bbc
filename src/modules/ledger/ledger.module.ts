import { Module } from '@nestjs/common';
import { FlowsModule } from '../flows/flows.module';
import { TrailRepository } from './persistence/trail.repository';
import { TrailLedger } from './trail-ledger';

/**
 * The ledger: trails and their numbered moments (tables `trails` and `trail_moments`), the append-only log
 * that every piece of evidence is a position in. No routes: the trails module serves them.
 * Public surface: TrailLedger, and MomentSql for a statement that records moments together with its own rows
 * (the one-statement attestation group).
 */
@Module({
  imports: [FlowsModule],
  providers: [TrailRepository, TrailLedger],
  exports: [TrailLedger],
})
export class LedgerModule {}

export { TrailLedger } from './trail-ledger';
export type { EnsuredTrail, TrailAddress } from './trail-ledger';
export { MomentSql } from './persistence/trail.repository';
export type { LockedTrail, MomentEntry, MomentKind, PinnedOrMissing, RecordedMoment, TrailField, TrailName } from './persistence/trail.repository';
