import { Module } from '@nestjs/common';
import { UpdateTagsHandler } from './commands/update-tags/update-tags.handler';
import { TagTargetRegistry } from './tag-target.registry';
import { TagsController } from './tags.controller';

/**
 * Tags on flows, environments, repos and controls: `PATCH /tags/{org}/{resource_type}/{resource_id}`. Owns no
 * table: each resource module keeps its resources' tags in its own table and registers a tag target
 * (`tagTargetProvider`) whose writer goes through its own repository; this module imports none of them.
 * Public surface: TagTargetRegistry, tagTargetProvider.
 */
@Module({
  controllers: [TagsController],
  providers: [TagTargetRegistry, UpdateTagsHandler],
  exports: [TagTargetRegistry],
})
export class TagsModule {}

export { TagTargetRegistry, tagTargetProvider } from './tag-target.registry';
export type { TagWriter } from './tag-target.registry';
