import { Query } from '@nestjs/cqrs';

export interface Readiness {
  status: 'ready';
  database: 'ok';
  /** `exhausted` while requests are refused for lack of storage (reads still work: readiness stays up). */
  storage: 'ok' | 'exhausted';
}

export class CheckReadinessQuery extends Query<Readiness> {}
