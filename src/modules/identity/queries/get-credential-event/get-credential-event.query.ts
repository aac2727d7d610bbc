import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { CredentialEventResponse } from '../../dto/credential-event.response';

export class GetCredentialEventQuery extends OrgQuery<OrgScope & { eventId: string }, CredentialEventResponse> {}
