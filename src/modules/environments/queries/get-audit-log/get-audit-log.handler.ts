import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Readable } from 'node:stream';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { LOG_EVENT_TYPES } from '../../domain/environment-log';
import { AUDIT_LOG_HEADER, auditLogLine } from '../../dto/environment-event.response';
import { AuditFilter, EnvironmentEventReader, EventBounds } from '../../persistence/environment-event.reader';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { LOGICAL } from '../../types/environment-type';
import { FlowDirectory } from '../../../flows/flows.module';
import { GetAuditLogQuery } from './get-audit-log.query';

/** Rows read per query: memory stays flat however long the log is. */
export const AUDIT_BATCH = 1000;
const NO_PROVENANCE = 'no provenance';

/**
 * The audit log: every entry of the environment's event log that passes the filters, oldest first, as CSV. The
 * environment and the filters are checked before the first byte (404, 400); the rows are then read in batches
 * by `seq` and written as the client reads them (the stream waits when the client does), up to the last entry
 * that existed when the request began.
 */
@QueryHandler(GetAuditLogQuery)
export class GetAuditLogHandler implements IQueryHandler<GetAuditLogQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly events: EnvironmentEventReader,
    private readonly flows: FlowDirectory,
  ) {}

  async execute(query: GetAuditLogQuery): Promise<StreamableFile> {
    const p = query.props;
    const filter = parseFilter(p);
    const env = await this.environments.find(p.orgId, p.envName);
    if (!env) throw new NotFoundError(`Environment '${p.envName}' not found`);
    if (env.type === LOGICAL) throw new BadRequestError(`Environment '${p.envName}' is logical: its events are its members'`);
    // Entries keep the flow names they were written with: a flow asked for by any of its names, now or before a
    // rename, matches the entries written under each of them.
    if (filter.flows?.length) filter.flows = [...new Set([...filter.flows, ...(await this.flows.everyNameOf(p.orgId, filter.flows))])];
    const { hi } = await this.events.seqRange(p.orgId, env.id, {});
    const reader = this.events;
    async function* lines(): AsyncGenerator<string> {
      yield AUDIT_LOG_HEADER.join(',') + '\r\n';
      let after = 0;
      for (;;) {
        const batch = await reader.auditBatch(p.orgId, env!.id, after, hi, filter, AUDIT_BATCH);
        if (!batch.length) return;
        yield batch.map(auditLogLine).join('');
        after = batch[batch.length - 1].seq;
      }
    }
    return new StreamableFile(Readable.from(lines()), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${env.name}-audit-log.csv"`,
    });
  }
}

const list = (raw: string | undefined) =>
  raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function parseFilter(p: GetAuditLogQuery['props']): AuditFilter & EventBounds {
  const errors: Record<string, string> = {};
  const types = list(p.eventTypes);
  const unknown = types?.filter((t) => !(LOG_EVENT_TYPES as readonly string[]).includes(t)) ?? [];
  if (unknown.length) errors['query.event_types'] = `unknown event type(s) ${unknown.join(', ')}: use ${LOG_EVENT_TYPES.join(', ')}`;
  if (p.fromTimestamp !== undefined && p.toTimestamp !== undefined && p.fromTimestamp > p.toTimestamp) {
    errors['query.from_timestamp'] = 'must not be after to_timestamp';
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const flows = list(p.flowNames);
  return {
    fromTime: p.fromTimestamp,
    toTime: p.toTimestamp,
    types,
    flows: flows?.filter((f) => f !== NO_PROVENANCE),
    noProvenance: flows?.includes(NO_PROVENANCE) ?? false,
    repos: list(p.repoNames),
  };
}
