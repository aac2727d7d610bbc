import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { DockerReportDto } from './docker-report.request.dto';

/** `docker`: containers of one Docker host; an instance of an image is a container running it. */
export const dockerEnvironmentType: EnvironmentTypeDefinition<DockerReportDto> = {
  name: 'docker',
  reportClass: DockerReportDto,
  items: (report) => report.artifacts.map((a) => ({ digests: a.digests, startedAt: a.creationTimestamp, context: null })),
  present: () => ({ pods: null }),
};

@Module({ imports: [EnvironmentTypeModule.register(dockerEnvironmentType)] })
export class DockerEnvironmentTypeModule {}
