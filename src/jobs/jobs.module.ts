import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue';

/** Jobs in PostgreSQL (pg-boss). Infrastructure, like the database module: global, never a feature. */
@Global()
@Module({ providers: [JobQueue], exports: [JobQueue] })
export class JobsModule {}
