import { Global, Module } from '@nestjs/common';
import { BeginTrailHandler } from './commands/begin-trail/begin-trail.handler';
import { MomentCache } from './persistence/moment-cache';
import { TrailStateReader } from './persistence/trail-state.reader';
import { TrailWriter } from './persistence/trail-writer';
import { GetTrailMomentHandler } from './queries/get-trail-moment/get-trail-moment.handler';
import { GetTrailHandler } from './queries/get-trail/get-trail.handler';
import { ListTrailsHandler } from './queries/list-trails/list-trails.handler';
import { TrailsController } from './trails.controller';

/**
 * Trails, their moments and compliance status. Exports the TrailWriter every evidence writer uses, and the
 * TrailStateReader (a trail's compliance state at any moment) for evaluations.
 */
@Global()
@Module({
  controllers: [TrailsController],
  providers: [TrailWriter, TrailStateReader, MomentCache, BeginTrailHandler, GetTrailHandler, ListTrailsHandler, GetTrailMomentHandler],
  exports: [TrailWriter, TrailStateReader],
})
export class TrailsModule {}
