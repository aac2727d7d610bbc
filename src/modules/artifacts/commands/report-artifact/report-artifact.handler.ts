import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { normaliseExternalUrls } from '../../../../common/evidence/evidence-validators';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { TrailLedger } from '../../../ledger/ledger.module';
import { RepoDirectory } from '../../../repos/repos.module';
import { ArtifactRepository } from '../../persistence/artifact.repository';
import { ReportArtifactCommand } from './report-artifact.command';

@CommandHandler(ReportArtifactCommand)
export class ReportArtifactHandler implements ICommandHandler<ReportArtifactCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: TrailLedger,
    private readonly repos: RepoDirectory,
    private readonly artifacts: ArtifactRepository,
    private readonly evidenceLog: EvidenceLog,
  ) {}

  async execute(command: ReportArtifactCommand): Promise<string> {
    const a = command.props.artifact;
    await this.uow.run(async (manager) => {
      const trail = await this.ledger.ensureTrail(manager, {
        orgId: command.props.orgId,
        flowName: command.props.flowName,
        trailName: a.trail_name,
        actor: command.props.actor,
      });
      if (a.repo_info) await this.repos.register(manager, command.props.orgId, a.repo_info);
      const id = randomUUID();
      const moment = await this.ledger.recordMoment(manager, trail.trailId, 'artifact', id);
      await this.artifacts.insert(manager, {
        id,
        orgId: command.props.orgId,
        flowId: trail.flowId,
        trailId: trail.trailId,
        momentNumber: moment.momentNumber,
        fingerprint: a.fingerprint,
        filename: a.filename,
        templateReferenceName: a.template_reference_name,
        gitCommit: a.git_commit || null,
        gitCommitInfo: a.git_commit_info ? JSON.stringify(a.git_commit_info) : null,
        buildUrl: a.build_url ?? null,
        commitUrl: a.commit_url ?? null,
        repoUrl: a.repo_url || null,
        repoInfo: a.repo_info ? JSON.stringify(a.repo_info) : null,
        externalUrls: JSON.stringify(normaliseExternalUrls(a.external_urls as Record<string, unknown>)),
        annotations: JSON.stringify(a.annotations ?? {}),
        reportedBy: command.props.actor,
        description: a.description ?? '',
        userData: a.user_data === undefined || a.user_data === null ? null : JSON.stringify(a.user_data),
        commitsList: a.commits_list ? JSON.stringify(a.commits_list) : null,
        isCompliant: a.is_compliant ?? null,
      });
      // The report is a record of the evidence log (kind `artifact`), read through the trail's moment it made.
      await this.evidenceLog.appendRef(manager, [
        {
          orgId: command.props.orgId,
          kind: 'artifact',
          id,
          ref: { org: command.props.orgName, flow: command.props.flowName, trail: a.trail_name, moment: moment.momentNumber, trail_id: trail.trailId },
        },
      ]);
    });
    return `Artifact '${a.filename}' was reported to trail '${a.trail_name}' as '${a.template_reference_name}'`;
  }
}
