import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { OperatorOnly } from '../../common/auth/auth.decorators';
import { Role } from '../../common/auth/principal';
import { AddMemberCommand } from './commands/add-member/add-member.command';
import { AddMemberRequestDto } from './commands/add-member/add-member.request.dto';
import { CreateOrganizationCommand } from './commands/create-organization/create-organization.command';
import { CreateOrganizationRequestDto } from './commands/create-organization/create-organization.request.dto';
import { UpdateOrganizationCommand } from './commands/update-organization/update-organization.command';
import { UpdateOrganizationRequestDto } from './commands/update-organization/update-organization.request.dto';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { ADDED_MEMBER_SCHEMA, CREATED_ORGANIZATION_SCHEMA, ORGANIZATION_SCHEMA } from './dto/organization.schema';

/** Operator bootstrap (Bearer ADMIN_TOKEN): how a new installation gets its first org and API key. */
@OperatorOnly()
@Controller('admin/organizations')
export class AdminOrganizationsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @HttpCode(201)
  @ApiSuccess(CREATED_ORGANIZATION_SCHEMA)
  create(@Body() body: CreateOrganizationRequestDto) {
    return this.commandBus.execute(
      new CreateOrganizationCommand({ name: body.name, region: body.region, features: body.features ?? [], adminEmail: body.admin.email }),
    );
  }

  @Patch(':org')
  @ApiSuccess(ORGANIZATION_SCHEMA)
  update(@Param('org') org: string, @Body() body: UpdateOrganizationRequestDto) {
    return this.commandBus.execute(new UpdateOrganizationCommand({ orgName: org, features: body.features }));
  }

  @Post(':org/members')
  @HttpCode(201)
  @ApiSuccess(ADDED_MEMBER_SCHEMA)
  addMember(@Param('org') org: string, @Body() body: AddMemberRequestDto) {
    return this.commandBus.execute(new AddMemberCommand({ orgName: org, email: body.email, role: body.role as Role }));
  }
}
