import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../../../../common/errors/app-error';
import { CheckReadinessQuery, Readiness } from './check-readiness.query';

/** Ready means the database answers; a probe must not hang, so the check has its own short timeout. */
@QueryHandler(CheckReadinessQuery)
export class CheckReadinessHandler implements IQueryHandler<CheckReadinessQuery> {
  constructor(private readonly dataSource: DataSource) {}

  async execute(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailableError()), 2_000);
    });
    try {
      await Promise.race([this.dataSource.query('SELECT 1'), timeout]);
      return { status: 'ready', database: 'ok' };
    } catch {
      throw new ServiceUnavailableError();
    } finally {
      clearTimeout(timer);
    }
  }
}
