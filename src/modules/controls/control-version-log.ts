import { EntityManager } from 'typeorm';
import { EvidenceLog } from '../evidence-log/evidence-log.module';
import { ControlVersionResponse } from './dto/control-version.response';

/**
 * A control's new version is a record of the evidence log (kind `control_version`, id
 * `<identifier>@<version>`): what `GET /controls/{org}/{identifier}/versions/{version}` answers, appended in
 * the transaction that made the change.
 */
export async function logControlVersion(
  evidenceLog: EvidenceLog,
  manager: EntityManager,
  org: { orgId: string; orgName: string },
  record: ControlVersionResponse,
): Promise<void> {
  await evidenceLog.append(manager, {
    orgId: org.orgId,
    org: org.orgName,
    kind: 'control_version',
    id: `${record.identifier}@${record.version}`,
    record,
    recordedAt: new Date(Math.round(record.changed_at * 1e6) / 1e3),
  });
}
