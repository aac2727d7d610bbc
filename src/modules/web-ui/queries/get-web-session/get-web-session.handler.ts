import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetWebSessionQuery, WebSessionView } from './get-web-session.query';

@QueryHandler(GetWebSessionQuery)
export class GetWebSessionHandler implements IQueryHandler<GetWebSessionQuery> {
  async execute({ props }: GetWebSessionQuery): Promise<WebSessionView> {
    return { kind: props.principal.kind, name: props.principal.name };
  }
}
