import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { TrailWriter } from '../../../trails/persistence/trail-writer';
import { parseFlowTemplate } from '../../domain/flow-template';
import { FlowTemplates } from '../../persistence/flow-templates';
import { CreateFlowCommand, CreateFlowResult } from './create-flow.command';

@CommandHandler(CreateFlowCommand)
export class CreateFlowHandler implements ICommandHandler<CreateFlowCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly trails: TrailWriter,
    private readonly templates: FlowTemplates,
  ) {}

  async execute(command: CreateFlowCommand): Promise<CreateFlowResult> {
    // Validate the template before anything is written.
    const spec = command.templateSource === null ? null : parseFlowTemplate(command.templateSource);
    const created = await this.uow.run(async (manager) => {
      const flow = await this.trails.ensureFlow(manager, command.orgId, command.name, command.actor);
      const locked: Array<{ template_id: string | null }> = await manager.query(
        `SELECT template_id FROM flows WHERE id = $1 FOR NO KEY UPDATE`,
        [flow.id],
      );
      const sets: string[] = [];
      const params: unknown[] = [flow.id];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (command.description != null) set('description', command.description);
      if (command.visibility != null) set('visibility', command.visibility);
      if (command.repoUrl !== undefined) set('repo_url', command.repoUrl || null);
      if (sets.length) {
        await manager.query(`UPDATE flows SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
      }
      if (spec) {
        await this.templates.saveVersion(manager, command.orgId, flow.id, locked[0].template_id, spec, command.templateSource!);
      }
      return flow.created;
    });
    return { created, message: `Flow '${command.name}' was ${created ? 'created' : 'updated'}` };
  }
}
