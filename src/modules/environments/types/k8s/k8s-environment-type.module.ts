import { Module } from '@nestjs/common';
import { EnvironmentTypeModule } from '../../environment-type.module';
import { EnvironmentTypeDefinition } from '../environment-type';
import { K8sReportDto } from './k8s-report.request.dto';

/** `K8S`: a Kubernetes cluster; an item is a pod, an instance of an image is a pod running it. */
export const k8sEnvironmentType: EnvironmentTypeDefinition<K8sReportDto> = {
  name: 'K8S',
  reportClass: K8sReportDto,
  items: (report) =>
    report.artifacts.map((pod) => ({
      digests: pod.digests,
      startedAt: pod.creationTimestamp,
      context: { pod_name: pod.podName, namespace: pod.namespace, owners: pod.owners ?? [] },
    })),
  present: (instances) => ({
    pods: Object.fromEntries(
      instances.map((i) => [i.context?.pod_name, { namespace: i.context?.namespace, creationTimestamp: i.started_at, owners: i.context?.owners ?? [] }]),
    ),
  }),
};

@Module({ imports: [EnvironmentTypeModule.register(k8sEnvironmentType)] })
export class K8sEnvironmentTypeModule {}
