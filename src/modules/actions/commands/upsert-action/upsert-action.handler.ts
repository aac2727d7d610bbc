import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { ConflictError, FieldErrors, ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ActionSubscriptions } from '../../action-subscriptions';
import { TargetGuard } from '../../delivery/target-guard';
import { ActionTarget } from '../../domain/action-target';
import { ActionNotFoundError, toActionResponse } from '../../dto/action.response';
import { ActionReader } from '../../persistence/action.reader';
import { ActionRepository } from '../../persistence/action.repository';
import { NotificationTargetRegistry } from '../../targets/notification-target.registry';
import { UpsertActionCommand, UpsertActionResult } from './upsert-action.command';

@CommandHandler(UpsertActionCommand)
export class UpsertActionHandler implements ICommandHandler<UpsertActionCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly actions: ActionRepository,
    private readonly reader: ActionReader,
    private readonly subscriptions: ActionSubscriptions,
    private readonly guard: TargetGuard,
    private readonly clock: Clock,
    private readonly targetTypes: NotificationTargetRegistry,
  ) {}

  async execute(command: UpsertActionCommand): Promise<UpsertActionResult> {
    const { orgId, type, name, triggers, scopes, actor } = command.props;
    const targets = command.props.targets.map((target) => normalised(target, this.targetTypes.get(target.type)?.defaults ?? {}));
    await this.checkTargets(targets);
    const fields = { name, type, targets, triggers: [...new Set(triggers)], scopes: [...new Set(scopes)] };
    const { number, created } = await this.uow.run(async (manager) => {
      await this.actions.lockOrg(manager, orgId);
      const existing = command.props.number === undefined ? await this.actions.findLiveByName(manager, orgId, name) : await this.byNumber(manager, command);
      if (existing && existing.type !== type) {
        throw new ConflictError(`Action '${name}' already exists as ${existing.type === 'env' ? 'an environment' : 'a flow'} action (number ${existing.number})`);
      }
      const at = new Date(this.clock.now());
      if (existing) await this.actions.update(manager, existing.id, fields, at);
      const action = existing ?? (await this.actions.insert(manager, orgId, fields, actor, at));
      await this.subscriptions.refresh(manager, orgId);
      return { number: action.number, created: !existing };
    });
    const row = await this.reader.find(orgId, number);
    if (!row) throw new ActionNotFoundError();
    return { created, action: toActionResponse(row) };
  }

  /** The action a by-number update names: 404 unless it is a live action of the command's type; 409 for a name another has. */
  private async byNumber(manager: Parameters<ActionRepository['lockOrg']>[0], command: UpsertActionCommand) {
    const { orgId, number, name, type } = command.props;
    const found = await this.actions.findLiveByNumber(manager, orgId, number!);
    if (!found || found.type !== type) throw new ActionNotFoundError();
    if (found.name !== name) {
      const other = await this.actions.findLiveByName(manager, orgId, name);
      if (other) throw new ConflictError(`Action '${name}' already exists (number ${other.number})`);
      await this.actions.rename(manager, found.id, name);
    }
    return found;
  }

  /** The SSRF check at save time: every webhook URL and the addresses its host resolves to. */
  private async checkTargets(targets: ActionTarget[]): Promise<void> {
    const errors: FieldErrors = {};
    await Promise.all(
      targets.map(async (target, i) => {
        if (target.webhook === undefined) return;
        const problem = await this.guard.problem(target.webhook);
        if (problem) errors[`targets[${i}].webhook`] = problem;
      }),
    );
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }
}

/**
 * What is stored of a target: its own fields, with its type's defaults for those left out (the read-only
 * timestamps a client may echo are dropped).
 */
function normalised(target: ActionTarget & { last_success_at?: unknown; last_failure_at?: unknown }, defaults: Partial<ActionTarget>): ActionTarget {
  const out: ActionTarget = { type: target.type };
  if (target.webhook !== undefined) out.webhook = target.webhook;
  if (target.secret !== undefined) out.secret = target.secret;
  if (target.emails !== undefined) out.emails = [...new Set(target.emails)];
  const payloadVersion = target.payload_version ?? defaults.payload_version;
  if (payloadVersion !== undefined) out.payload_version = payloadVersion;
  if (target.context) out.context = { channel_id: target.context.channel_id, channel_name: target.context.channel_name, team_id: target.context.team_id };
  return out;
}
