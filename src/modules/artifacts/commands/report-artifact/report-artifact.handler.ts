import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { normaliseExternalUrls } from '../../../../common/evidence/evidence-validators';
import { FLOW_NAME_PATTERN } from '../../../flows/commands/create-flow/create-flow.request.dto';
import { RepoRegistry } from '../../../repos/persistence/repo-registry';
import { TrailWriter } from '../../../trails/persistence/trail-writer';
import { ReportArtifactCommand } from './report-artifact.command';

@CommandHandler(ReportArtifactCommand)
export class ReportArtifactHandler implements ICommandHandler<ReportArtifactCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly trails: TrailWriter,
    private readonly repos: RepoRegistry,
  ) {}

  async execute(command: ReportArtifactCommand): Promise<string> {
    // The flow may be created here, so its name must be valid.
    if (!FLOW_NAME_PATTERN.test(command.flowName)) {
      throw new ValidationError({ 'path.flow_name': `must match ${FLOW_NAME_PATTERN.source}` });
    }
    const a = command.artifact;
    await this.uow.run(async (manager) => {
      const trail = await this.trails.ensureTrail(manager, command.orgId, command.flowName, a.trail_name, command.actor);
      if (a.repo_info) await this.repos.register(manager, command.orgId, a.repo_info);
      const id = randomUUID();
      const moment = await this.trails.recordMoment(manager, trail.trailId, 'artifact', id);
      await manager.query(
        `INSERT INTO artifacts (id, org_id, flow_id, trail_id, moment_number, fingerprint, filename, template_reference_name,
           git_commit, git_commit_info, build_url, commit_url, repo_url, repo_info, external_urls, annotations, reported_by,
           description, user_data, commits_list, is_compliant, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
           (SELECT created_at FROM trail_moments WHERE trail_id = $4 AND moment_number = $5))`,
        [
          id,
          command.orgId,
          trail.flowId,
          trail.trailId,
          moment.momentNumber,
          a.fingerprint,
          a.filename,
          a.template_reference_name,
          a.git_commit || null,
          a.git_commit_info ? JSON.stringify(a.git_commit_info) : null,
          a.build_url ?? null,
          a.commit_url ?? null,
          a.repo_url || null,
          a.repo_info ? JSON.stringify(a.repo_info) : null,
          JSON.stringify(normaliseExternalUrls(a.external_urls as Record<string, unknown>)),
          JSON.stringify(a.annotations ?? {}),
          command.actor,
          a.description ?? '',
          a.user_data === undefined || a.user_data === null ? null : JSON.stringify(a.user_data),
          a.commits_list ? JSON.stringify(a.commits_list) : null,
          a.is_compliant ?? null,
        ],
      );
    });
    return `Artifact '${a.filename}' was reported to trail '${a.trail_name}' as '${a.template_reference_name}'`;
  }
}
