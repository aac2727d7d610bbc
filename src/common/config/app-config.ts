import * as path from 'node:path';
import { AdmissionTlsConfigError, AdmissionTlsSettings, loadAdmissionTlsSettings } from './admission-tls-config';

export type Region = 'eu' | 'us';
export const REGIONS: readonly Region[] = ['eu', 'us'];
export type ProcessRole = 'api' | 'worker' | 'all';

/** Typed, validated configuration. Built once at boot from the environment; a bad value stops start-up. */
export interface AppConfig {
  port: number;
  databaseUrl?: string;
  dataDir: string;
  /** DATA_DIR was not set: the default `./.data`, whose embedded cluster may be kept elsewhere as root. */
  dataDirIsDefault?: boolean;
  region: Region;
  publicBaseUrl: string;
  peerRegions: Partial<Record<Region, string>>;
  adminToken?: string;
  migrationsRun: boolean;
  bodyLimitBytes: number;
  /**
   * `VERSION_HISTORY_MAX_MB`: the most text one custom attestation type's or one policy's versions may hold
   * together. Their reads answer every version at once (one jsonb aggregate, whose limit is 255 MB), so a new
   * version past it is refused (413) rather than making the type or policy unreadable.
   */
  versionHistoryMaxBytes: number;
  http: HttpServerSettings;
  /** The evidence log (src/modules/evidence-log). */
  evidenceLog: EvidenceLogSettings;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  role: ProcessRole;
  evaluations: EvaluationSettings;
  database: DatabaseSettings;
  actions: ActionsSettings;
  /** Where attachments are kept: PostgreSQL (the default) or an S3-compatible bucket (`EVIDENCE_S3_*`). */
  evidence: EvidenceSettings;
  rateLimit: RateLimitSettings;
  observability: ObservabilitySettings;
  /** The admission webhook's mutual-TLS listener (`ADMISSION_TLS_*`, admission-tls-config.ts); none when unset. */
  admissionTls?: AdmissionTlsSettings;
}

export type EvidenceSettings = { store: 'postgres' } | { store: 's3'; s3: S3EvidenceSettings };

export interface S3EvidenceSettings {
  /** `EVIDENCE_S3_ENDPOINT`: an S3-compatible server (MinIO, Ceph, ...); unset means AWS S3 of the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither; neither means the SDK's default credential chain (instance role, web identity, ...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path rather than the host name (`EVIDENCE_S3_FORCE_PATH_STYLE`). */
  forcePathStyle: boolean;
  /** Prepended to every object key (`EVIDENCE_S3_PREFIX`), so one bucket can serve several deployments. */
  prefix: string;
}

/** Requests per window, counted per API key (anonymous requests: per client IP), in each process. */
export interface RateLimitSettings {
  /** `RATE_LIMIT_REQUESTS`: per key and window; 0 turns rate limiting off. */
  requests: number;
  /** `RATE_LIMIT_ANONYMOUS_REQUESTS`: per client IP and window, for requests made without an API key. */
  anonymousRequests: number;
  /** `RATE_LIMIT_WINDOW_SECONDS`. */
  windowSeconds: number;
}

/** Logs, metrics and shutdown (`LOG_FORMAT`, `METRICS_TOKEN`, `SHUTDOWN_GRACE_MS`). */
export interface ObservabilitySettings {
  /** `auto`: readable lines when stdout is a terminal, JSON lines otherwise. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** When set, `/metrics` answers only `Authorization: Bearer <token>`; unset, it is open like the probes. */
  metricsToken?: string;
  /** How long a stopping process waits for in-flight requests and jobs before it exits anyway. */
  shutdownGraceMs: number;
}

/** How notifications of actions are sent (`ACTIONS_*`, `SMTP_*`). */
export interface ActionsSettings {
  /** Targets may resolve to private, loopback or link-local addresses (`ACTIONS_ALLOW_PRIVATE_TARGETS`). */
  allowPrivateTargets: boolean;
  /** One attempt's time limit, connection to answer (`ACTIONS_DELIVERY_TIMEOUT_MS`). */
  deliveryTimeoutMs: number;
  /** Attempts per delivery before it is dead-lettered (`ACTIONS_DELIVERY_ATTEMPTS`). */
  deliveryAttempts: number;
  /** Base of the exponential backoff between attempts (`ACTIONS_RETRY_DELAY_SECONDS`). */
  retryDelaySeconds: number;
  /** SMTP server for EMAIL targets (`SMTP_URL`, smtp:// or smtps://); none: e-mail deliveries fail. */
  smtpUrl?: string;
  /** Sender of notification e-mails (`SMTP_FROM`). */
  smtpFrom: string;
}

/** Node's HTTP server timeouts (`HTTP_*_TIMEOUT_MS`): how long a slow or idle client may hold a connection. */
export interface HttpServerSettings {
  /** From the first byte of a request to its last (headers and body); 408 beyond (`HTTP_REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  /** From the first byte of a request to the end of its headers; 408 beyond (`HTTP_HEADERS_TIMEOUT_MS`). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long (`HTTP_KEEP_ALIVE_TIMEOUT_MS`). */
  keepAliveTimeoutMs: number;
}

/** How the service uses its PostgreSQL, whichever server (DATABASE_URL or embedded) it is. */
export interface DatabaseSettings {
  /** Connections per process (`DATABASE_POOL_SIZE`). */
  poolSize: number;
  /** PostgreSQL `statement_timeout` of every connection (`DATABASE_STATEMENT_TIMEOUT_MS`). */
  statementTimeoutMs: number;
}

/** How policies are run on the server (evaluations). */
export interface EvaluationSettings {
  /** how long create evaluation waits for the result before answering with the pending state */
  waitMs: number;
  /** wall-clock budget of one evaluation (policy_timeout beyond) */
  deadlineMs: number;
  /** heap cap of each evaluation worker (policy_resource_limit beyond) */
  maxHeapMb: number;
  /** worker threads evaluating policies in this process */
  threads: number;
  /** OS niceness of those threads (0-19): a busy policy yields the CPU to requests */
  niceness: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 0 || n > 65535) {
    throw new ConfigError(`${name} must be a port number between 0 and 65535, got "${raw}"`);
  }
  return n;
}

/** A whole number in [min, max]; `describe` says the range in the words an operator would use. */
function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number, describe: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(`${name} must be ${describe}, got "${raw}"`);
  return n;
}

/** `raw` with whatever stands between `//` and the last `@` before the host replaced by `***` (user and password). */
function withoutUserInfo(raw: string): string {
  return raw.replace(/^([^:/?#]*:\/\/)[^/?#]*@/, '$1***@');
}

function parseUrl(name: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not echoed as given: a URL's user info may hold a password, and this line goes to the logs.
    throw new ConfigError(`${name} must be a URL, got "${withoutUserInfo(raw)}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw.replace(/\/+$/, '');
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** `PEER_REGIONS` is `us=https://us.example.com,eu=https://eu.example.com` or the same as a JSON object. */
function parsePeerRegions(raw: string | undefined): Partial<Record<Region, string>> {
  if (!raw) return {};
  let pairs: [string, unknown][];
  if (raw.trim().startsWith('{')) {
    try {
      pairs = Object.entries(JSON.parse(raw));
    } catch {
      throw new ConfigError('PEER_REGIONS must be a JSON object or a list region=url,region=url');
    }
  } else {
    pairs = raw.split(',').filter(Boolean).map((item) => {
      const at = item.indexOf('=');
      if (at < 0) throw new ConfigError(`PEER_REGIONS entry "${item}" must be region=url`);
      return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    });
  }
  const peers: Partial<Record<Region, string>> = {};
  for (const [region, url] of pairs) {
    if (!REGIONS.includes(region as Region)) {
      throw new ConfigError(`PEER_REGIONS names an unknown region "${region}" (expected eu or us)`);
    }
    if (typeof url !== 'string') throw new ConfigError(`PEER_REGIONS.${region} must be a URL`);
    peers[region as Region] = parseUrl(`PEER_REGIONS.${region}`, url, ['http:', 'https:']);
  }
  return peers;
}

/**
 * A statement timeout under a second is almost always a unit mistake (`30` meant as seconds), and `30s` is not
 * a number at all: both fail start-up instead of quietly turning the timeout off.
 */
function loadDatabaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  return {
    poolSize: parseInteger('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 20, 1, 500, 'a whole number of connections from 1 to 500'),
    statementTimeoutMs: parseInteger(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      env.DATABASE_STATEMENT_TIMEOUT_MS,
      30_000,
      1_000,
      3_600_000,
      'a whole number of milliseconds from 1000 (1 s) to 3600000 (1 h)',
    ),
  };
}

/**
 * `EMBEDDED_PG_FAST` (fsync and synchronous_commit off) is for the test harness's embedded PostgreSQL
 * (serve-embedded-postgres); the service itself never trades durability for speed and does not read it.
 */
export function loadEmbeddedPgFast(env: NodeJS.ProcessEnv = process.env): boolean {
  return parseBoolean('EMBEDDED_PG_FAST', env.EMBEDDED_PG_FAST, false);
}

function loadEvaluationSettings(env: NodeJS.ProcessEnv): EvaluationSettings {
  return {
    waitMs: parseInteger('EVALUATION_WAIT_MS', env.EVALUATION_WAIT_MS, 5_000, 0, 60_000, 'a whole number of milliseconds from 0 to 60000'),
    deadlineMs: parseInteger('EVALUATION_DEADLINE_MS', env.EVALUATION_DEADLINE_MS, 10_000, 100, 300_000, 'a whole number of milliseconds from 100 to 300000'),
    maxHeapMb: parseInteger('EVALUATION_MAX_HEAP_MB', env.EVALUATION_MAX_HEAP_MB, 256, 32, 8_192, 'a whole number of megabytes from 32 to 8192'),
    threads: parseInteger('EVALUATION_THREADS', env.EVALUATION_THREADS, 2, 1, 64, 'a whole number of threads from 1 to 64'),
    niceness: parseInteger('EVALUATION_THREAD_NICENESS', env.EVALUATION_THREAD_NICENESS, 10, 0, 19, 'a whole number from 0 to 19'),
  };
}

/**
 * Node checks both timeouts on a timer (`connectionsCheckingInterval`), so a timeout fires up to one check late;
 * the service derives the check interval from the shorter timeout (http-server.ts). Node also refuses a headers
 * timeout longer than the request timeout, so that is checked here, with the variables' names.
 */
function loadHttpServerSettings(env: NodeJS.ProcessEnv): HttpServerSettings {
  const range = 'a whole number of milliseconds from 100 to 3600000 (1 h)';
  const settings = {
    requestTimeoutMs: parseInteger('HTTP_REQUEST_TIMEOUT_MS', env.HTTP_REQUEST_TIMEOUT_MS, 300_000, 100, 3_600_000, range),
    headersTimeoutMs: parseInteger('HTTP_HEADERS_TIMEOUT_MS', env.HTTP_HEADERS_TIMEOUT_MS, 20_000, 100, 3_600_000, range),
    keepAliveTimeoutMs: parseInteger('HTTP_KEEP_ALIVE_TIMEOUT_MS', env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 5_000, 100, 3_600_000, range),
  };
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_MS (${settings.headersTimeoutMs}) must not be longer than HTTP_REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs})`,
    );
  }
  return settings;
}

function loadActionsSettings(env: NodeJS.ProcessEnv): ActionsSettings {
  const smtpFrom = env.SMTP_FROM || 'Veritrail <veritrail@localhost>';
  if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(smtpFrom)) {
    throw new ConfigError(`SMTP_FROM must be an e-mail address ("ops@example.com" or "Name <ops@example.com>"), got "${smtpFrom}"`);
  }
  return {
    allowPrivateTargets: parseBoolean('ACTIONS_ALLOW_PRIVATE_TARGETS', env.ACTIONS_ALLOW_PRIVATE_TARGETS, false),
    deliveryTimeoutMs: parseInteger(
      'ACTIONS_DELIVERY_TIMEOUT_MS',
      env.ACTIONS_DELIVERY_TIMEOUT_MS,
      10_000,
      100,
      120_000,
      'a whole number of milliseconds from 100 to 120000',
    ),
    deliveryAttempts: parseInteger('ACTIONS_DELIVERY_ATTEMPTS', env.ACTIONS_DELIVERY_ATTEMPTS, 8, 1, 50, 'a whole number from 1 to 50'),
    retryDelaySeconds: parseInteger('ACTIONS_RETRY_DELAY_SECONDS', env.ACTIONS_RETRY_DELAY_SECONDS, 5, 1, 3600, 'a whole number of seconds from 1 to 3600'),
    smtpUrl: env.SMTP_URL ? parseUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']) : undefined,
    smtpFrom,
  };
}

const EVIDENCE_S3_VARIABLES = [
  'EVIDENCE_S3_ENDPOINT',
  'EVIDENCE_S3_BUCKET',
  'EVIDENCE_S3_REGION',
  'EVIDENCE_S3_ACCESS_KEY_ID',
  'EVIDENCE_S3_SECRET_ACCESS_KEY',
  'EVIDENCE_S3_FORCE_PATH_STYLE',
  'EVIDENCE_S3_PREFIX',
] as const;

/**
 * `EVIDENCE_S3_BUCKET` turns the S3 store on; any other `EVIDENCE_S3_*` without it is a mistake (a secret
 * that did not mount), not a reason to fall back silently to PostgreSQL.
 */
function loadEvidenceSettings(env: NodeJS.ProcessEnv): EvidenceSettings {
  const bucket = env.EVIDENCE_S3_BUCKET ?? '';
  if (!bucket) {
    const stray = EVIDENCE_S3_VARIABLES.filter((name) => env[name]);
    if (stray.length) throw new ConfigError(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but EVIDENCE_S3_BUCKET is not: set the bucket to store attachments in S3, or unset them`);
    return { store: 'postgres' };
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(`EVIDENCE_S3_BUCKET must be an S3 bucket name (3 to 63 characters: a-z, 0-9, '.', '-'), got "${bucket}"`);
  }
  const region = env.EVIDENCE_S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError(`EVIDENCE_S3_REGION must be a region name such as eu-west-1, got "${region}"`);
  const accessKeyId = env.EVIDENCE_S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.EVIDENCE_S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) {
    throw new ConfigError('EVIDENCE_S3_ACCESS_KEY_ID and EVIDENCE_S3_SECRET_ACCESS_KEY must be set together (or both left unset to use the default AWS credential chain)');
  }
  const endpoint = env.EVIDENCE_S3_ENDPOINT ? parseUrl('EVIDENCE_S3_ENDPOINT', env.EVIDENCE_S3_ENDPOINT, ['http:', 'https:']) : undefined;
  const prefix = env.EVIDENCE_S3_PREFIX ?? '';
  if (prefix && !/^[A-Za-z0-9!_.*'()\/-]{1,256}$/.test(prefix)) {
    throw new ConfigError(`EVIDENCE_S3_PREFIX must be up to 256 characters of A-Z a-z 0-9 / ! - _ . * ' ( ), got "${prefix}"`);
  }
  return {
    store: 's3',
    s3: {
      endpoint,
      bucket,
      region,
      accessKeyId,
      secretAccessKey,
      // S3-compatible servers are usually addressed by path; AWS itself by virtual host.
      forcePathStyle: parseBoolean('EVIDENCE_S3_FORCE_PATH_STYLE', env.EVIDENCE_S3_FORCE_PATH_STYLE, endpoint !== undefined),
      prefix,
    },
  };
}

function loadRateLimitSettings(env: NodeJS.ProcessEnv): RateLimitSettings {
  return {
    requests: parseInteger('RATE_LIMIT_REQUESTS', env.RATE_LIMIT_REQUESTS, 6_000, 0, 10_000_000, 'a whole number of requests from 0 (no limit) to 10000000'),
    anonymousRequests: parseInteger(
      'RATE_LIMIT_ANONYMOUS_REQUESTS',
      env.RATE_LIMIT_ANONYMOUS_REQUESTS,
      600,
      0,
      10_000_000,
      'a whole number of requests from 0 (no limit) to 10000000',
    ),
    windowSeconds: parseInteger('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 60, 1, 3_600, 'a whole number of seconds from 1 to 3600'),
  };
}

function loadObservabilitySettings(env: NodeJS.ProcessEnv): ObservabilitySettings {
  const logFormat = (env.LOG_FORMAT || 'auto') as ObservabilitySettings['logFormat'];
  if (!['json', 'pretty', 'auto'].includes(logFormat)) throw new ConfigError(`LOG_FORMAT must be json, pretty or auto, got "${env.LOG_FORMAT}"`);
  if (env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN !== '' && env.METRICS_TOKEN.length < 16) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters long');
  }
  return {
    logFormat,
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownGraceMs: parseInteger('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 25_000, 0, 3_600_000, 'a whole number of milliseconds from 0 to 3600000'),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = parsePort('PORT', env.PORT, 8080);
  const region = (env.REGION || 'eu') as Region;
  if (!REGIONS.includes(region)) throw new ConfigError(`REGION must be eu or us, got "${env.REGION}"`);
  const databaseUrl = env.DATABASE_URL
    ? parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'])
    : undefined;
  const publicBaseUrl = env.PUBLIC_BASE_URL
    ? parseUrl('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL, ['http:', 'https:'])
    : `http://localhost:${port}`;
  const logLevel = (env.LOG_LEVEL || 'info') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const role = (env.ROLE || 'all') as ProcessRole;
  if (!['api', 'worker', 'all'].includes(role)) throw new ConfigError(`ROLE must be api, worker or all, got "${env.ROLE}"`);
  const bodyLimitMb = env.BODY_LIMIT_MB ? Number(env.BODY_LIMIT_MB) : 32;
  if (!Number.isFinite(bodyLimitMb) || bodyLimitMb <= 0) {
    throw new ConfigError(`BODY_LIMIT_MB must be a positive number, got "${env.BODY_LIMIT_MB}"`);
  }
  if (env.ADMIN_TOKEN !== undefined && env.ADMIN_TOKEN !== '' && env.ADMIN_TOKEN.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
  }
  return {
    port,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    dataDirIsDefault: !env.DATA_DIR,
    region,
    publicBaseUrl,
    peerRegions: parsePeerRegions(env.PEER_REGIONS),
    adminToken: env.ADMIN_TOKEN || undefined,
    migrationsRun: parseBoolean('MIGRATIONS_RUN', env.MIGRATIONS_RUN, true),
    bodyLimitBytes: Math.floor(bodyLimitMb * 1024 * 1024),
    versionHistoryMaxBytes: parseInteger('VERSION_HISTORY_MAX_MB', env.VERSION_HISTORY_MAX_MB, 64, 1, 128, 'a whole number of megabytes from 1 to 128') * 1024 * 1024,
    http: loadHttpServerSettings(env),
    logLevel,
    role,
    database: loadDatabaseSettings(env),
    evaluations: loadEvaluationSettings(env),
    actions: loadActionsSettings(env),
    evidence: loadEvidenceSettings(env),
    rateLimit: loadRateLimitSettings(env),
    observability: loadObservabilitySettings(env),
    admissionTls: loadAdmissionTls(env),
    evidenceLog: loadEvidenceLogSettings(env, publicBaseUrl),
  };
}

export interface EvidenceLogSettings {
  /** LOG_ORIGIN: checkpoint origins are `<origin>/<org>`; default host[:port] of PUBLIC_BASE_URL. Also the key name. */
  origin: string;
  /** LOG_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM. */
  signingKeyPem?: string;
  /** LOG_SIGNING_KEY_FILE: a file holding one. */
  signingKeyFile?: string;
  /** LOG_CHECKPOINT_INTERVAL_MS: the longest a committed entry waits for a signed checkpoint covering it (default 1000). */
  checkpointIntervalMs: number;
  /** LOG_SEQUENCE_INTERVAL_MS: how often the sequencer integrates queued entries (default 250). */
  sequenceIntervalMs: number;
}

function loadEvidenceLogSettings(env: NodeJS.ProcessEnv, publicBaseUrl: string): EvidenceLogSettings {
  const origin = env.LOG_ORIGIN || new URL(publicBaseUrl).host;
  if (/[\s+]/.test(origin)) throw new ConfigError(`LOG_ORIGIN must have no whitespace and no '+', got "${origin}"`);
  return {
    origin,
    signingKeyPem: env.LOG_SIGNING_KEY || undefined,
    signingKeyFile: env.LOG_SIGNING_KEY_FILE || undefined,
    checkpointIntervalMs: parseInteger('LOG_CHECKPOINT_INTERVAL_MS', env.LOG_CHECKPOINT_INTERVAL_MS, 1000, 10, 3_600_000, 'a whole number of milliseconds from 10 to 3600000'),
    sequenceIntervalMs: parseInteger('LOG_SEQUENCE_INTERVAL_MS', env.LOG_SEQUENCE_INTERVAL_MS, 250, 10, 60_000, 'a whole number of milliseconds from 10 to 60000'),
  };
}

function loadAdmissionTls(env: NodeJS.ProcessEnv): AdmissionTlsSettings | undefined {
  try {
    return loadAdmissionTlsSettings(env);
  } catch (error) {
    if (error instanceof AdmissionTlsConfigError) throw new ConfigError(error.message);
    throw error;
  }
}
