import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BetaFeatureDisabledError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { KIND_LABELS, RESOURCE_SPELLINGS, resourceKind } from '../../domain/resource-kinds';
import { applyTagUpdate, TooManyTagsError } from '../../domain/tag-update';
import { TagTargetRegistry } from '../../tag-target.registry';
import { UpdateTagsCommand } from './update-tags.command';

/**
 * 400 unknown resource type -> 403 the kind's routes are beta and the org lacks the flag (controls, like the
 * control routes) -> 404 no such resource (a kind whose module has not registered a target has none) -> 400 too
 * many tags. 200 `"OK"`.
 */
@CommandHandler(UpdateTagsCommand)
export class UpdateTagsHandler implements ICommandHandler<UpdateTagsCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly targets: TagTargetRegistry,
  ) {}

  async execute(command: UpdateTagsCommand): Promise<string> {
    const { orgId, orgName, resourceType, resourceId, set, remove, features } = command.props;
    const kind = resourceKind(resourceType);
    if (!kind) throw new ValidationError({ 'path.resource_type': `must be one of ${Object.keys(RESOURCE_SPELLINGS).join(', ')}` }, 'Invalid resource type');
    const notFound = new NotFoundError(`${KIND_LABELS[kind]} '${resourceId}' not found`);
    const target = this.targets.get(kind);
    if (target?.beta && !features.includes(target.beta)) throw new BetaFeatureDisabledError(target.beta, orgName);
    if (!target) throw notFound;
    const found = await this.uow.run((manager) =>
      target.write(manager, orgId, resourceId, (current) => {
        try {
          return applyTagUpdate(current, set, remove);
        } catch (error) {
          if (error instanceof TooManyTagsError) throw new ValidationError({ set_tags: error.message });
          throw error;
        }
      }),
    );
    if (!found) throw notFound;
    return 'OK';
  }
}
