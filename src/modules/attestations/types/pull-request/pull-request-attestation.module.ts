import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { PullRequestAttestationController } from './pull-request-attestation.controller';
import { PullRequestAttestationRequestDto } from './pull-request-attestation.request.dto';
import { assessPullRequests } from './pull-request-assessment';

/** `pull_request`: the PRs of a commit, any provider. Compliance from the PRs found; summary in `data.pull_request`. */
export const pullRequestAttestationType: AttestationTypeDefinition<PullRequestAttestationRequestDto> = {
  name: 'pull_request',
  schemaVersion: 1,
  dataClass: PullRequestAttestationRequestDto,
  acceptsAttachment: true,
  isCompliant: (data) => data.pull_requests.length > 0,
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: {
      ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
      git_provider: data.git_provider,
      pull_requests: data.pull_requests,
    },
  }),
  assess: assessPullRequests,
};

@Module({
  imports: [AttestationTypeModule.register(pullRequestAttestationType)],
  controllers: [PullRequestAttestationController],
})
export class PullRequestAttestationModule {}
