import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { LambdaReportDto } from './lambda-report.request.dto';

/** `lambda`: AWS Lambda functions; an artifact is a function's deployed package. */
export const lambdaEnvironmentType: EnvironmentTypeDefinition<LambdaReportDto> = {
  name: 'lambda',
  reportClass: LambdaReportDto,
  items: (report) => report.artifacts.map((a) => ({ digests: a.digests, startedAt: a.creationTimestamp, context: null })),
  present: () => ({ pods: null }),
};

@Module({ imports: [EnvironmentTypeModule.register(lambdaEnvironmentType)] })
export class LambdaEnvironmentTypeModule {}
