import { Query } from '@nestjs/cqrs';

export interface Readiness {
  status: 'ready';
  database: 'ok';
}

export class CheckReadinessQuery extends Query<Readiness> {}
