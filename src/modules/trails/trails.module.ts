import { Module } from '@nestjs/common';
import { AttestationsModule } from '../attestations/attestations.module';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { FlowsModule } from '../flows/flows.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ReposModule } from '../repos/repos.module';
import { BeginTrailHandler } from './commands/begin-trail/begin-trail.handler';
import { MomentCache } from './queries/get-trail-moment/moment-cache';
import { TrailListReader } from './persistence/trail-list.reader';
import { TrailStateReader } from './read-model/trail-state.reader';
import { GetTrailMomentHandler } from './queries/get-trail-moment/get-trail-moment.handler';
import { GetTrailHandler } from './queries/get-trail/get-trail.handler';
import { ListTrailsHandler } from './queries/list-trails/list-trails.handler';
import { TrailPolicyInput } from './trail-policy-input';
import { TrailLogRenderers } from './trail-log-renderers';
import { TrailsController } from './trails.controller';

/**
 * The trail routes: begin or update a trail, read it with its compliance status, list trails, and read a trail
 * as of any moment. Owns no table: trails and moments are written through the ledger (LedgerModule), and the
 * read side (TrailStateReader) joins the ledger's, the artifacts' and the attestations' tables in one
 * statement so that a state is one consistent snapshot.
 * Public surface: TrailStateReader (a trail's compliance state at any moment) and TrailPolicyInput (trails
 * pinned at moments, as a policy's input sees them). TrailLogRenderers builds the evidence log entries of trails
 * begun or updated and of artifact reports (kinds `trail` and `artifact`) from the moment route.
 */
@Module({
  imports: [LedgerModule, FlowsModule, ReposModule, AttestationsModule, EvidenceLogModule],
  controllers: [TrailsController],
  providers: [TrailStateReader, TrailListReader, TrailPolicyInput, MomentCache, BeginTrailHandler, GetTrailHandler, ListTrailsHandler, GetTrailMomentHandler, TrailLogRenderers],
  exports: [TrailStateReader, TrailPolicyInput],
})
export class TrailsModule {}

export { TrailStateReader } from './read-model/trail-state.reader';
export type { TrailState, TrailRecord, MomentRecord } from './domain/trail-state';
export { TrailPolicyInput } from './trail-policy-input';
export type { PinnedTrail } from './trail-policy-input';
export type { TrailStatus } from './domain/compliance';

// Read messages other modules may dispatch (the audit package copies a trail as its read route answers it).
export { GetTrailQuery } from './queries/get-trail/get-trail.query';
export { GetTrailMomentQuery } from './queries/get-trail-moment/get-trail-moment.query';
export type { MomentLogRef } from './trail-log-renderers';
