import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { CheckReadinessHandler } from './queries/check-readiness/check-readiness.handler';

@Module({ controllers: [HealthController], providers: [CheckReadinessHandler] })
export class HealthModule {}
