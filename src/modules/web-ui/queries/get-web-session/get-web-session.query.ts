import { Query } from '@nestjs/cqrs';
import { Principal } from '../../../../common/auth/principal';

export interface WebSessionView {
  kind: string;
  name: string;
}

/** Who the caller is (by session cookie or API key): what the web interface shows as signed in. */
export class GetWebSessionQuery extends Query<WebSessionView> {
  constructor(readonly props: Readonly<{ principal: Principal }>) {
    super();
  }
}
