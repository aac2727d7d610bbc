import { Body, Controller, Param, Patch, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope } from '../../common/cqrs/org-scoped';
import { jsonString } from '../../common/http/json-string';
import { UpdateTagsCommand } from './commands/update-tags/update-tags.command';
import { UpdateTagsRequestDto } from './commands/update-tags/update-tags.request.dto';
import { ApiSuccess, message } from '../../common/openapi/response-schema';

@Controller('tags')
export class TagsController {
  constructor(private readonly commandBus: CommandBus) {}

  /** 200 `"OK"`. */
  @Patch(':org/:resource_type/:resource_id')
  @ApiSuccess(message)
  async update(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('resource_type') resourceType: string,
    @Param('resource_id') resourceId: string,
    @Body() body: UpdateTagsRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const message = await this.commandBus.execute(
      new UpdateTagsCommand({ ...actingScope(org, principal), resourceType, resourceId, set: body.set_tags ?? {}, remove: body.remove_tags ?? [], features: org.features }),
    );
    return jsonString(res, 200, message);
  }
}
