import 'reflect-metadata';
import { acceptIfValid } from '../../../common/validation/compiled-validation';
import { EcsReportDto } from './ecs/ecs-report.request.dto';
import { K8sReportDto } from './k8s/k8s-report.request.dto';

const A = 'a'.repeat(64);

describe('report DTOs take the compiled fast path when valid', () => {
  it('K8S, with owners or with owners null', () => {
    const report = {
      artifacts: [
        { podName: 'p', namespace: 'n', digests: { web: A }, creationTimestamp: 1, owners: [{ apiVersion: 'v1', kind: 'ReplicaSet', name: 'r', uid: 'u', extra: true }] },
        { podName: 'q', namespace: 'n', digests: {}, creationTimestamp: 2, owners: null },
      ],
    };
    expect(acceptIfValid(K8sReportDto, report)).toBeInstanceOf(K8sReportDto);
    expect(acceptIfValid(K8sReportDto, { artifacts: [{ ...report.artifacts[0], digests: { web: 'x' } }] })).toBeUndefined();
  });

  it('ECS with an unknown digest', () => {
    expect(acceptIfValid(EcsReportDto, { artifacts: [{ taskArn: 't', digests: { a: '', b: A }, creationTimestamp: 1 }] })).toBeInstanceOf(EcsReportDto);
  });
});
