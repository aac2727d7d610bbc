import { Clock } from '../clock/clock';
import { JsonLogger } from '../logging/json-logger';
import { Metrics } from '../metrics/metrics';
import { InsufficientResourcesError, Resource } from './resource-errors';

interface Incident {
  since: number;
  last: number;
  refusals: number;
}

const INCIDENT_LINES: Record<Resource, string> = {
  storage: 'out of storage: refusing requests that need it (503)',
  memory: 'database out of memory: refusing requests (503)',
  connections: 'out of database connections: refusing requests (503)',
  other: 'database out of resources: refusing requests (503)',
};

/**
 * Requests refused for lack of a resource (InsufficientResourcesError), told to operators once per incident
 * rather than once per request: a full disk refuses every write, and a log line each would fill what is left.
 *
 * An incident of one resource is a run of refusals with less than QUIET_MS between one and the next. Its first
 * refusal writes one `error` line (what ran out, where, the underlying error); its end (QUIET_MS without a
 * refusal, noticed at the next refusal, scrape or readiness check) writes one `info` line with the count.
 * Every refusal is counted in `veritrail_resource_refusals_total{resource,store}`, and
 * `veritrail_storage_exhausted` is 1 while a storage incident is open.
 */
export class ResourceRefusals {
  static readonly QUIET_MS = 60_000;
  private readonly open = new Map<Resource, Incident>();

  constructor(
    private readonly logger: JsonLogger,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {
    metrics.watchStorage(() => this.exhausted('storage'));
  }

  record(refusal: InsufficientResourcesError, context: { requestId?: string; method?: string; path?: string } = {}): void {
    this.metrics.countResourceRefusal(refusal.resource, refusal.store);
    const now = this.clock.now();
    this.closeQuiet(now);
    const incident = this.open.get(refusal.resource);
    if (incident) {
      incident.last = now;
      incident.refusals++;
      return;
    }
    this.open.set(refusal.resource, { since: now, last: now, refusals: 1 });
    this.logger.error(INCIDENT_LINES[refusal.resource], {
      resource: refusal.resource,
      store: refusal.store,
      error: refusal.detail,
      request_id: context.requestId,
      method: context.method,
      path: context.path,
      note: 'logged once per incident; every refusal is counted in veritrail_resource_refusals_total',
    });
  }

  /** Whether requests are being refused for lack of this resource (a refusal within the last QUIET_MS). */
  exhausted(resource: Resource): boolean {
    this.closeQuiet(this.clock.now());
    return this.open.has(resource);
  }

  private closeQuiet(now: number): void {
    for (const [resource, incident] of this.open) {
      if (now - incident.last <= ResourceRefusals.QUIET_MS) continue;
      this.open.delete(resource);
      this.logger.info(`no refusals for lack of ${resource} for ${ResourceRefusals.QUIET_MS / 1000} s: incident over`, {
        resource,
        refusals: incident.refusals,
        since: new Date(incident.since).toISOString(),
        last_refusal: new Date(incident.last).toISOString(),
      });
    }
  }
}
