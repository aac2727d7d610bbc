import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { ServerReportDto } from './server-report.request.dto';

/** `server`: files and folders on a server (`kosli snapshot server` and `kosli snapshot path(s)`); an artifact is a path. */
export const serverEnvironmentType: EnvironmentTypeDefinition<ServerReportDto> = {
  name: 'server',
  reportClass: ServerReportDto,
  items: (report) => report.artifacts.map((a) => ({ digests: a.digests, startedAt: a.creationTimestamp, context: null })),
  present: () => ({ pods: null }),
};

@Module({ imports: [EnvironmentTypeModule.register(serverEnvironmentType)] })
export class ServerEnvironmentTypeModule {}
