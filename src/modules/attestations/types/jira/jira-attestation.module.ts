import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { JiraAttestationController } from './jira-attestation.controller';
import { JiraAttestationRequestDto } from './jira-attestation.request.dto';
import { assessJira } from './jira-assessment';

/** `jira`: issue references of a commit. Compliance from the issues found (`assess`); keys in `data.jira`. */
export const jiraAttestationType: AttestationTypeDefinition<JiraAttestationRequestDto> = {
  name: 'jira',
  schemaVersion: 1,
  dataClass: JiraAttestationRequestDto,
  acceptsAttachment: true,
  isCompliant: (data) => data.jira_results.length > 0 && data.jira_results.every((r) => r.issue_exists),
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: {
      ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
      jira_results: JSON.parse(JSON.stringify(data.jira_results)),
    },
  }),
  assess: assessJira,
};

@Module({
  imports: [AttestationTypeModule.register(jiraAttestationType)],
  controllers: [JiraAttestationController],
})
export class JiraAttestationModule {}
