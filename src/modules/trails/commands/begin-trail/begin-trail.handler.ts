import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { normaliseExternalUrls } from '../../../../common/evidence/evidence-validators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { FlowDirectory, FlowTemplateSpec, parseFlowTemplate } from '../../../flows/flows.module';
import { TrailField, TrailLedger } from '../../../ledger/ledger.module';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { RepoDirectory } from '../../../repos/repos.module';
import { MomentLogRef } from '../../trail-log-renderers';
import { BeginTrailCommand, BeginTrailResult } from './begin-trail.command';

@CommandHandler(BeginTrailCommand)
export class BeginTrailHandler implements ICommandHandler<BeginTrailCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: TrailLedger,
    private readonly flows: FlowDirectory,
    private readonly repos: RepoDirectory,
    private readonly evidenceLog: EvidenceLog,
  ) {}

  async execute(command: BeginTrailCommand): Promise<BeginTrailResult> {
    const spec = command.props.templateSource === null ? null : parseFlowTemplate(command.props.templateSource);
    const { data } = command.props;
    const created = await this.uow.run(async (manager) => {
      const flow = await this.flows.findFlow(manager, command.props.orgId, command.props.flowName);
      if (!flow) throw new NotFoundError(`Flow '${command.props.flowName}' not found`);
      // Lock order of every evidence writer: trail row, then repo and flow rows.
      const registerRepo = () => (data.repo_info ? this.repos.register(manager, command.props.orgId, data.repo_info) : Promise.resolve(''));
      const fields = sentFields(command);
      // Each moment this writes is a record of the evidence log (kind `trail`, read through the moment route).
      const logMoment = (trailId: string, moment: number) => {
        const ref: MomentLogRef = { org: command.props.orgName, flow: command.props.flowName, trail: data.name, moment, trail_id: trailId };
        return this.evidenceLog.appendRef(manager, [{ orgId: command.props.orgId, kind: 'trail', id: `${trailId}@${moment}`, ref: { ...ref } }]);
      };
      const saveTemplate = (currentTemplateId: string | null) =>
        this.flows.saveTemplateVersion(manager, {
          orgId: command.props.orgId,
          flowId: flow.id,
          currentTemplateId,
          spec: spec as FlowTemplateSpec,
          source: command.props.templateSource!,
          makeCurrent: false,
        });

      let trail = await this.ledger.lockTrailInFlow(manager, flow.id, data.name);
      if (!trail) {
        const trailId = await this.ledger.insertTrail(manager, {
          orgId: command.props.orgId,
          flowId: flow.id,
          name: data.name,
          templateId: flow.templateId,
          actor: command.props.actor,
          fields,
        });
        if (trailId) {
          // The trail's own template is set before its first moment, so moment 1 is evaluated against it.
          if (spec) await this.ledger.setTrailTemplate(manager, trailId, await saveTemplate(flow.templateId));
          await registerRepo();
          await logMoment(trailId, (await this.ledger.recordMoment(manager, trailId, 'trail_begun', null)).momentNumber);
          return true;
        }
        // Begun concurrently (an attestation, another begin): update it instead.
        trail = (await this.ledger.lockTrailInFlow(manager, flow.id, data.name))!;
      }
      await registerRepo();
      const changed = await this.ledger.updateTrail(manager, trail.trailId, fields);
      if (spec) {
        const templateId = await saveTemplate(trail.templateId);
        if (templateId !== trail.templateId) {
          await this.ledger.setTrailTemplate(manager, trail.trailId, templateId);
          await logMoment(trail.trailId, (await this.ledger.recordMoment(manager, trail.trailId, 'template_changed', templateId)).momentNumber);
          return false;
        }
      }
      if (changed) await logMoment(trail.trailId, (await this.ledger.recordMoment(manager, trail.trailId, 'trail_updated', null)).momentNumber);
      return false;
    });
    return { created, message: `Trail '${data.name}' was ${created ? 'begun' : 'updated'}` };
  }
}

/** The trail columns the client sent (a field left out keeps its value). */
function sentFields(command: BeginTrailCommand): TrailField[] {
  const d = command.props.data;
  const out: TrailField[] = [];
  if (d.description !== undefined) out.push({ column: 'description', value: d.description ?? '', cast: '::text' });
  if (d.git_commit_info !== undefined) {
    out.push({ column: 'git_commit_info', value: d.git_commit_info ? JSON.stringify(d.git_commit_info) : null, cast: '::jsonb' });
  }
  if (d.repo_info !== undefined) out.push({ column: 'repo_info', value: d.repo_info ? JSON.stringify(d.repo_info) : null, cast: '::jsonb' });
  if (d.user_data !== undefined) out.push({ column: 'user_data', value: JSON.stringify(d.user_data ?? {}), cast: '::jsonb' });
  if (d.origin_url !== undefined) out.push({ column: 'origin_url', value: d.origin_url ?? null, cast: '::text' });
  if (d.external_urls !== undefined) {
    out.push({ column: 'external_urls', value: JSON.stringify(normaliseExternalUrls(d.external_urls as Record<string, unknown>)), cast: '::jsonb' });
  }
  return out;
}
