import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { AzureAppsReportDto } from './azure-apps-report.request.dto';

/**
 * `azure-apps`: Azure Web and Function apps; an instance of an image is an app running it. Each artifact of a
 * snapshot lists its apps (`azure_apps`: name, kind, where the digest came from, start time).
 */
export const azureAppsEnvironmentType: EnvironmentTypeDefinition<AzureAppsReportDto> = {
  name: 'azure-apps',
  reportClass: AzureAppsReportDto,
  items: (report) =>
    report.artifacts.map((a) => ({
      digests: a.digests,
      startedAt: a.creationTimestamp,
      context: { app_name: a.app_name, app_kind: a.app_kind, digests_source: a.digests_source },
    })),
  present: (instances) => ({
    pods: null,
    azure_apps: instances.map((i) => ({ ...(i.context ?? {}), creationTimestamp: i.started_at })),
  }),
};

@Module({ imports: [EnvironmentTypeModule.register(azureAppsEnvironmentType)] })
export class AzureAppsEnvironmentTypeModule {}
