import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ServiceUnavailableError } from '../../../../common/errors/app-error';
import { ResourceRefusals } from '../../../../common/errors/resource-refusals';
import { DatabaseProbe } from '../../../../database/database-probe';
import { CheckReadinessQuery, Readiness } from './check-readiness.query';

/**
 * Ready means the database answers; a probe must not hang, so the check has its own short timeout. A full disk
 * does not make it unready (reads still work, and every replica shares the same storage, so taking them all out
 * of the load balancer would stop reads too); the answer says so in `storage` (docs/choices.md).
 */
@QueryHandler(CheckReadinessQuery)
export class CheckReadinessHandler implements IQueryHandler<CheckReadinessQuery> {
  constructor(
    private readonly database: DatabaseProbe,
    private readonly refusals: ResourceRefusals,
  ) {}

  async execute(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailableError()), 2_000);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
      return { status: 'ready', database: 'ok', storage: this.refusals.exhausted('storage') ? 'exhausted' : 'ok' };
    } catch {
      throw new ServiceUnavailableError();
    } finally {
      clearTimeout(timer);
    }
  }
}
