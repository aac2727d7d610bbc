import { Query } from '@nestjs/cqrs';

/** The Prometheus exposition text, for a caller who sent `authorization` (checked when METRICS_TOKEN is set). */
export class ScrapeMetricsQuery extends Query<string> {
  constructor(readonly authorization: string | undefined) {
    super();
  }
}
