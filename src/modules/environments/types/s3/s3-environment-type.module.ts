import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { S3ReportDto } from './s3-report.request.dto';

/** `S3`: an object-storage bucket; an artifact is the bucket's content (`kosli snapshot s3` names it after the bucket, or `<bucket>/<object>`). */
export const s3EnvironmentType: EnvironmentTypeDefinition<S3ReportDto> = {
  name: 'S3',
  reportClass: S3ReportDto,
  items: (report) => report.artifacts.map((a) => ({ digests: a.digests, startedAt: a.creationTimestamp, context: null })),
  present: () => ({ pods: null }),
};

@Module({ imports: [EnvironmentTypeModule.register(s3EnvironmentType)] })
export class S3EnvironmentTypeModule {}
