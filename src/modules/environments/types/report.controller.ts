import { Body, Controller, createParamDecorator, ExecutionContext, Inject, Param, PipeTransform, Put, Res, Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../common/auth/principal';
import { actingScope } from '../../../common/cqrs/org-scoped';
import { NotFoundError } from '../../../common/errors/app-error';
import { jsonString } from '../../../common/http/json-string';
import { validateDto } from '../../../common/validation/strict-validation.pipe';
import { ReportEnvironmentCommand } from '../commands/report-environment/report-environment.command';
import { EnvironmentTypeDefinition, ReportBody } from './environment-type';
import { ApiSuccess, message } from '../../../common/openapi/response-schema';

/** Validates a report body against its type's DTO, with the global pipe's rules and error shape. */
class ReportBodyPipe implements PipeTransform<unknown, ReportBody> {
  constructor(private readonly cls: new () => ReportBody) {}

  transform(value: unknown): ReportBody {
    return validateDto(this.cls, value);
  }
}

/** The last segment of the request's path, as sent (Express matches routes without regard to case). */
const LastPathSegment = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const path = ctx.switchToHttp().getRequest<Request>().path;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
});

/** The report path segment is the type, case-sensitive: `report/k8s` is no route. */
class ExactTypePipe implements PipeTransform<string, string> {
  constructor(private readonly type: string) {}

  transform(segment: string): string {
    if (segment !== this.type) throw new NotFoundError(`No report route for type '${segment}': environment types are case-sensitive`);
    return segment;
  }
}

/**
 * The report route of one environment type: `PUT /environments/{org}/{env}/report/<name>`, role snapshotter.
 * 201 with a string body when the report made a new snapshot, 200 when nothing changed.
 */
export function reportControllerFor(definition: EnvironmentTypeDefinition<any>): Type<unknown> {
  @Controller('environments')
  class ReportController {
    constructor(@Inject(CommandBus) private readonly commandBus: CommandBus) {}

    @Put(`:org/:env/report/${definition.name}`)
    @RequiresRole('snapshotter')
    @ApiSuccess(message, { status: [201, 200] })
    async report(
      @CurrentOrg() org: OrgContext,
      @CurrentPrincipal() principal: Principal,
      @LastPathSegment(new ExactTypePipe(definition.name)) type: string,
      @Param('env') env: string,
      @Body(new ReportBodyPipe(definition.reportClass)) report: ReportBody,
      @Res({ passthrough: true }) res: Response,
    ) {
      const outcome = await this.commandBus.execute(
        new ReportEnvironmentCommand({ ...actingScope(org, principal), envName: env, type, report }),
      );
      return jsonString(res, outcome.created ? 201 : 200, outcome.message);
    }
  }
  Object.defineProperty(ReportController, 'name', { value: `${definition.name}ReportController` });
  return ReportController;
}
