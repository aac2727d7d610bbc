import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { CREDENTIAL_EVENT_SCHEMA } from './dto/identity.schema';
import { GetCredentialEventQuery } from './queries/get-credential-event/get-credential-event.query';

/**
 * Changes of who may write in an org (service accounts, API keys), one record each, never changed: what the
 * evidence log's `credential_event` entries hash. Event ids are found in the log (`GET /log/{org}/entries`).
 */
@Controller('credential-events')
export class CredentialEventsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org/:event_id')
  @ApiSuccess(CREDENTIAL_EVENT_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('event_id') eventId: string) {
    return this.queryBus.execute(new GetCredentialEventQuery({ ...orgScope(org), eventId }));
  }
}
