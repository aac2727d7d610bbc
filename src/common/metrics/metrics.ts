import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { registerLogSinkMetrics } from './log-sink-metrics';

/** A pg pool's counts, as `pg.Pool` keeps them. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Evaluations of this process: waiting for a worker thread, and running (accepted, outcome not yet recorded). */
export interface EvaluationLoad {
  waiting: number;
  running: number;
}

/** The Prometheus text format's media type (prom-client's registries all answer with it). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The process's Prometheus metrics, behind a few named methods: code records what happened where it happens
 * (`metrics.observeIngestGroup(n)`) and never touches prom-client. One registry per instance, not prom-client's
 * global one, so several apps in one test process do not share series. Values that are read rather than
 * counted (pool use, evaluation load) are asked for at scrape time from a source the owner registers.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly requestSeries = new Map<string, { count: { inc(): void }; seconds: { observe(value: number): void } }>();
  private readonly evaluationSeconds: Histogram<'outcome'>;
  private readonly deliveries: Counter<'target' | 'outcome'>;
  private readonly ingestGroups: Histogram;
  private readonly resourceRefusals: Counter<'resource' | 'store'>;
  private storageSource: () => boolean = () => false;
  private poolSource: () => PoolUse | undefined = () => undefined;
  private evaluationSource: () => EvaluationLoad = () => ({ waiting: 0, running: 0 });

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'veritrail_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'veritrail_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers,
    });
    this.evaluationSeconds = new Histogram({
      name: 'veritrail_evaluation_duration_seconds',
      help: 'Run time of an evaluation (input, policy, recording), by outcome: completed or the failure kind',
      labelNames: ['outcome'],
      buckets: SECONDS,
      registers,
    });
    const load = () => this.evaluationSource();
    new Gauge({
      name: 'veritrail_evaluation_queue_depth',
      help: 'Evaluations waiting for a worker thread in this process',
      registers,
      collect() {
        this.set(load().waiting);
      },
    });
    new Gauge({
      name: 'veritrail_evaluations_running',
      help: 'Evaluations this process has started and not yet recorded an outcome for',
      registers,
      collect() {
        this.set(load().running);
      },
    });
    this.deliveries = new Counter({
      name: 'veritrail_notification_deliveries_total',
      help: 'Notification delivery attempts, by target type and outcome (delivered, failed: to be retried, dead: dead-lettered)',
      labelNames: ['target', 'outcome'],
      registers,
    });
    this.ingestGroups = new Histogram({
      name: 'veritrail_ingest_group_size',
      help: 'Attestations written together by one group commit',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers,
    });
    this.resourceRefusals = new Counter({
      name: 'veritrail_resource_refusals_total',
      help: 'Requests refused with 503 for lack of a resource, by resource (storage, memory, connections, other) and store (database, evidence_store, files)',
      labelNames: ['resource', 'store'],
      registers,
    });
    const storage = () => this.storageSource();
    new Gauge({
      name: 'veritrail_storage_exhausted',
      help: '1 while requests are refused for lack of storage (a refusal within the last minute), else 0',
      registers,
      collect() {
        this.set(storage() ? 1 : 0);
      },
    });
    registerLogSinkMetrics(registers);
    const pool = () => this.poolSource();
    const poolGauge = (name: string, help: string, pick: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const use = pool();
          if (use) this.set(pick(use));
        },
      });
    poolGauge('veritrail_db_pool_connections', 'Open database connections of this process (in use and idle)', (u) => u.total);
    poolGauge('veritrail_db_pool_idle_connections', 'Open database connections not in use', (u) => u.idle);
    poolGauge('veritrail_db_pool_waiting_requests', 'Queries waiting for a free database connection', (u) => u.waiting);
    poolGauge('veritrail_db_pool_max_connections', 'Largest number of connections the pool opens (DATABASE_POOL_SIZE)', (u) => u.max);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    // One pair of labelled children per (method, route, status), kept: labelling each observation anew hashed
    // the label object on every request. Routes are templates, so the set is small and bounded.
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.labels(labels), seconds: this.requestSeconds.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.seconds.observe(seconds);
  }

  observeEvaluation(outcome: string, seconds: number): void {
    this.evaluationSeconds.observe({ outcome }, seconds);
  }

  countDelivery(target: string, outcome: 'delivered' | 'failed' | 'dead'): void {
    this.deliveries.inc({ target, outcome });
  }

  observeIngestGroup(size: number): void {
    this.ingestGroups.observe(size);
  }

  countResourceRefusal(resource: string, store: string): void {
    this.resourceRefusals.inc({ resource, store });
  }

  watchStorage(source: () => boolean): void {
    this.storageSource = source;
  }

  watchPool(source: () => PoolUse | undefined): void {
    this.poolSource = source;
  }

  watchEvaluations(source: () => EvaluationLoad): void {
    this.evaluationSource = source;
  }

  /** The exposition text for a scrape. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
