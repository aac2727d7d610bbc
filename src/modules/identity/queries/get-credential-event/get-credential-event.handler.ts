import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { CredentialEventResponse } from '../../dto/credential-event.response';
import { KEY_ID } from '../../key-holders';
import { CredentialEventRepository } from '../../persistence/credential-event.repository';
import { GetCredentialEventQuery } from './get-credential-event.query';

@QueryHandler(GetCredentialEventQuery)
export class GetCredentialEventHandler implements IQueryHandler<GetCredentialEventQuery> {
  constructor(private readonly events: CredentialEventRepository) {}

  /** Event ids are UUIDs; anything else names no event (404, like an unknown id). */
  async execute(query: GetCredentialEventQuery): Promise<CredentialEventResponse> {
    const { orgId, eventId } = query.props;
    const found = KEY_ID.test(eventId) ? await this.events.find(orgId, eventId.toLowerCase()) : null;
    if (!found) throw new NotFoundError('Credential event not found');
    return found;
  }
}
