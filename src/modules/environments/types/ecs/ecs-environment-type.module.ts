import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { EcsReportDto } from './ecs-report.request.dto';

/** `ECS`: AWS ECS tasks; an instance of an image is a task running it. */
export const ecsEnvironmentType: EnvironmentTypeDefinition<EcsReportDto> = {
  name: 'ECS',
  reportClass: EcsReportDto,
  items: (report) =>
    report.artifacts.map((task) => ({
      digests: task.digests,
      startedAt: task.creationTimestamp,
      context: { task_arn: task.taskArn, cluster_name: task.cluster_name ?? null, service_name: task.service_name ?? null },
    })),
  present: (instances) => {
    const latest = [...instances].sort((a, b) => b.started_at - a.started_at)[0];
    return {
      pods: null,
      ecs_context: latest?.context ?? null,
      ecs_tasks: instances.map((i) => i.context),
    };
  },
};

@Module({ imports: [EnvironmentTypeModule.register(ecsEnvironmentType)] })
export class EcsEnvironmentTypeModule {}
