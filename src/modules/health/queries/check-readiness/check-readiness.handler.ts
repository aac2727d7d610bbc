import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ServiceUnavailableError } from '../../../../common/errors/app-error';
import { DatabaseProbe } from '../../../../database/database-probe';
import { CheckReadinessQuery, Readiness } from './check-readiness.query';

/** Ready means the database answers; a probe must not hang, so the check has its own short timeout. */
@QueryHandler(CheckReadinessQuery)
export class CheckReadinessHandler implements IQueryHandler<CheckReadinessQuery> {
  constructor(private readonly database: DatabaseProbe) {}

  async execute(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailableError()), 2_000);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
      return { status: 'ready', database: 'ok' };
    } catch {
      throw new ServiceUnavailableError();
    } finally {
      clearTimeout(timer);
    }
  }
}
