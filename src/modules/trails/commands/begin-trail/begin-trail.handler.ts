import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { normaliseExternalUrls } from '../../../../common/evidence/evidence-validators';
import { parseFlowTemplate } from '../../../flows/domain/flow-template';
import { FlowTemplates } from '../../../flows/persistence/flow-templates';
import { RepoRegistry } from '../../../repos/persistence/repo-registry';
import { TrailWriter } from '../../persistence/trail-writer';
import { BeginTrailCommand, BeginTrailResult } from './begin-trail.command';

@CommandHandler(BeginTrailCommand)
export class BeginTrailHandler implements ICommandHandler<BeginTrailCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly trails: TrailWriter,
    private readonly templates: FlowTemplates,
    private readonly repos: RepoRegistry,
  ) {}

  async execute(command: BeginTrailCommand): Promise<BeginTrailResult> {
    const spec = command.templateSource === null ? null : parseFlowTemplate(command.templateSource);
    const { data } = command;
    const created = await this.uow.run(async (manager) => {
      const flows: Array<{ id: string; template_id: string | null }> = await manager.query(
        `SELECT id, template_id FROM flows WHERE org_id = $1 AND name = $2`,
        [command.orgId, command.flowName],
      );
      if (!flows.length) throw new NotFoundError(`Flow '${command.flowName}' not found`);
      const flow = flows[0];
      // Lock order of every evidence writer: trail row, then repo and flow rows.
      const registerRepo = () => (data.repo_info ? this.repos.register(manager, command.orgId, data.repo_info) : Promise.resolve(''));

      const fields = this.sentFields(command);
      let trail = await this.lock(manager, flow.id, data.name);
      if (!trail) {
        const columns = ['id', 'org_id', 'flow_id', 'name', 'template_id', 'created_by', ...fields.map((f) => f[0])];
        const values = [randomUUID(), command.orgId, flow.id, data.name, flow.template_id, command.actor, ...fields.map((f) => f[1])];
        const inserted: Array<{ id: string }> = await manager.query(
          `INSERT INTO trails (${columns.join(', ')}, created_at, updated_at)
           VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}, clock_timestamp(), clock_timestamp())
           ON CONFLICT (flow_id, name) DO NOTHING RETURNING id`,
          values,
        );
        if (inserted.length) {
          // The trail's own template is set before its first moment, so moment 1 is evaluated against it.
          if (spec) {
            const templateId = await this.templates.saveVersion(
              manager, command.orgId, flow.id, flow.template_id, spec, command.templateSource!, false,
            );
            await manager.query(`UPDATE trails SET template_id = $2 WHERE id = $1`, [inserted[0].id, templateId]);
          }
          await registerRepo();
          await this.trails.recordMoment(manager, inserted[0].id, 'trail_begun', null);
          return true;
        }
        // Begun concurrently (an attestation, another begin): update it instead.
        trail = (await this.lock(manager, flow.id, data.name))!;
      }
      await registerRepo();

      let changed = false;
      if (fields.length) {
        const sets = fields.map((f, i) => `${f[0]} = $${i + 2}`);
        const distinct = `(${fields.map((f) => f[0]).join(', ')}) IS DISTINCT FROM (${fields.map((f, i) => `$${i + 2}${f[2]}`).join(', ')})`;
        const updated = await manager.query(
          `UPDATE trails SET ${sets.join(', ')} WHERE id = $1 AND ${distinct} RETURNING id`,
          [trail.id, ...fields.map((f) => f[1])],
        );
        // TypeORM answers an UPDATE with [rows, rowCount].
        changed = Number(updated[1] ?? 0) > 0;
      }
      if (spec) {
        const templateId = await this.templates.saveVersion(
          manager, command.orgId, flow.id, trail.template_id, spec, command.templateSource!, false,
        );
        if (templateId !== trail.template_id) {
          await manager.query(`UPDATE trails SET template_id = $2 WHERE id = $1`, [trail.id, templateId]);
          await this.trails.recordMoment(manager, trail.id, 'template_changed', templateId);
          return false;
        }
      }
      if (changed) await this.trails.recordMoment(manager, trail.id, 'trail_updated', null);
      return false;
    });
    return { created, message: `Trail '${data.name}' was ${created ? 'begun' : 'updated'}` };
  }

  /** [column, value, cast] for each field the client sent. */
  private sentFields(command: BeginTrailCommand): Array<[string, unknown, string]> {
    const d = command.data;
    const out: Array<[string, unknown, string]> = [];
    if (d.description !== undefined) out.push(['description', d.description ?? '', '::text']);
    if (d.git_commit_info !== undefined) out.push(['git_commit_info', d.git_commit_info ? JSON.stringify(d.git_commit_info) : null, '::jsonb']);
    if (d.repo_info !== undefined) out.push(['repo_info', d.repo_info ? JSON.stringify(d.repo_info) : null, '::jsonb']);
    if (d.user_data !== undefined) out.push(['user_data', JSON.stringify(d.user_data ?? {}), '::jsonb']);
    if (d.origin_url !== undefined) out.push(['origin_url', d.origin_url ?? null, '::text']);
    if (d.external_urls !== undefined) {
      out.push(['external_urls', JSON.stringify(normaliseExternalUrls(d.external_urls as Record<string, unknown>)), '::jsonb']);
    }
    return out;
  }

  private async lock(manager: EntityManager, flowId: string, name: string) {
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM trails WHERE flow_id = $1 AND name = $2 FOR UPDATE`,
      [flowId, name],
    );
    return rows[0] ?? null;
  }
}
