import { ConfigError, loadConfig, loadEmbeddedPgFast } from './app-config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, region: 'eu', databaseUrl: undefined, migrationsRun: true, role: 'all' });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.database).toEqual({ poolSize: 20, statementTimeoutMs: 30_000 });
    expect(config.evaluations).toEqual({ waitMs: 5_000, deadlineMs: 10_000, maxHeapMb: 256, threads: 2, niceness: 10 });
    expect(config.observability).toEqual({ logFormat: 'auto', metricsToken: undefined, shutdownGraceMs: 25_000 });
  });

  it('reads the log format, metrics token and shutdown grace period', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty', METRICS_TOKEN: 'a-metrics-token-0123', SHUTDOWN_GRACE_MS: '0' }).observability).toEqual({
      logFormat: 'pretty',
      metricsToken: 'a-metrics-token-0123',
      shutdownGraceMs: 0,
    });
  });

  it('reads the database pool size and statement timeout, bounds included', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '1', DATABASE_STATEMENT_TIMEOUT_MS: '1000' }).database).toEqual({
      poolSize: 1,
      statementTimeoutMs: 1_000,
    });
    expect(loadConfig({ DATABASE_POOL_SIZE: '500', DATABASE_STATEMENT_TIMEOUT_MS: '3600000' }).database).toEqual({
      poolSize: 500,
      statementTimeoutMs: 3_600_000,
    });
  });

  it('has documented HTTP timeouts and reads them', () => {
    expect(loadConfig({}).http).toEqual({ requestTimeoutMs: 300_000, headersTimeoutMs: 20_000, keepAliveTimeoutMs: 5_000 });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '100' }).http).toEqual({
      requestTimeoutMs: 1_000,
      headersTimeoutMs: 1_000,
      keepAliveTimeoutMs: 100,
    });
  });

  it.each([
    [{ HTTP_REQUEST_TIMEOUT_MS: '2m' }, /^HTTP_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000 \(1 h\), got "2m"$/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, /HTTP_HEADERS_TIMEOUT_MS .* got "0"/],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '99' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS .* got "99"/],
    // Node itself would throw at server creation, naming none of the variables.
    [{ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' }, /HTTP_HEADERS_TIMEOUT_MS \(6000\) must not be longer than HTTP_REQUEST_TIMEOUT_MS \(5000\)/],
  ])('refuses the HTTP timeouts %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ REGION: 'asia' }, /REGION must be eu or us/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    // A malformed URL is named without its password.
    [{ DATABASE_URL: 'postgres://veritrail:S3cret@db:54x32/veritrail' }, /^DATABASE_URL must be a URL, got "postgres:\/\/\*\*\*@db:54x32\/veritrail"$/],
    [{ PUBLIC_BASE_URL: 'not a url' }, /PUBLIC_BASE_URL must be a URL/],
    [{ PEER_REGIONS: 'mars=https://x' }, /unknown region "mars"/],
    [{ PEER_REGIONS: 'us' }, /must be region=url/],
    [{ ADMIN_TOKEN: 'short' }, /at least 16/],
    [{ MIGRATIONS_RUN: 'maybe' }, /MIGRATIONS_RUN/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ LOG_FORMAT: 'xml' }, /^LOG_FORMAT must be json, pretty or auto, got "xml"$/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be at least 16 characters long$/],
    [{ SHUTDOWN_GRACE_MS: '30s' }, /^SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 3600000, got "30s"$/],
    [{ SHUTDOWN_GRACE_MS: '3600001' }, /SHUTDOWN_GRACE_MS .* got "3600001"/],
    // Number('abc') used to become the default pool of 20 without a word.
    [{ DATABASE_POOL_SIZE: 'abc' }, /^DATABASE_POOL_SIZE must be a whole number of connections from 1 to 500, got "abc"$/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE .* got "0"/],
    [{ DATABASE_POOL_SIZE: '-5' }, /DATABASE_POOL_SIZE .* got "-5"/],
    [{ DATABASE_POOL_SIZE: '2.5' }, /DATABASE_POOL_SIZE .* got "2.5"/],
    [{ DATABASE_POOL_SIZE: '501' }, /DATABASE_POOL_SIZE .* got "501"/],
    // `30s` used to become NaN, which turned the statement timeout off.
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '30s' }, /^DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 1000 \(1 s\) to 3600000 \(1 h\), got "30s"$/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: 'abc' }, /DATABASE_STATEMENT_TIMEOUT_MS .* got "abc"/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '30' }, /DATABASE_STATEMENT_TIMEOUT_MS .* got "30"/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, /DATABASE_STATEMENT_TIMEOUT_MS .* got "0"/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '3600001' }, /DATABASE_STATEMENT_TIMEOUT_MS .* got "3600001"/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '1e4' }, /DATABASE_STATEMENT_TIMEOUT_MS .* got "1e4"/],
    [{ ACTIONS_ALLOW_PRIVATE_TARGETS: 'sometimes' }, /^ACTIONS_ALLOW_PRIVATE_TARGETS must be true or false, got "sometimes"$/],
    [{ ACTIONS_DELIVERY_TIMEOUT_MS: '10s' }, /^ACTIONS_DELIVERY_TIMEOUT_MS must be a whole number of milliseconds from 100 to 120000, got "10s"$/],
    [{ ACTIONS_DELIVERY_ATTEMPTS: '0' }, /ACTIONS_DELIVERY_ATTEMPTS .* got "0"/],
    [{ ACTIONS_RETRY_DELAY_SECONDS: '0.5' }, /ACTIONS_RETRY_DELAY_SECONDS .* got "0.5"/],
    [{ SMTP_URL: 'http://mail.example.com' }, /^SMTP_URL must use smtp: or smtps:, got "http:"$/],
    [{ SMTP_FROM: 'nobody' }, /^SMTP_FROM must be an e-mail address/],
    [{ EVALUATION_THREAD_NICENESS: '20' }, /^EVALUATION_THREAD_NICENESS must be a whole number from 0 to 19, got "20"$/],
    [{ EVALUATION_THREAD_NICENESS: '-1' }, /EVALUATION_THREAD_NICENESS .* got "-1"/],
  ])('rejects %j with one clear message', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(message);
  });

  it('reads the notification settings, with defaults', () => {
    expect(loadConfig({}).actions).toEqual({
      allowPrivateTargets: false,
      deliveryTimeoutMs: 10_000,
      deliveryAttempts: 8,
      retryDelaySeconds: 5,
      smtpUrl: undefined,
      smtpFrom: 'Veritrail <veritrail@localhost>',
    });
    expect(
      loadConfig({ ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'ops@example.com', ACTIONS_DELIVERY_ATTEMPTS: '3' })
        .actions,
    ).toMatchObject({ allowPrivateTargets: true, smtpUrl: 'smtp://127.0.0.1:2525', smtpFrom: 'ops@example.com', deliveryAttempts: 3 });
  });

  it('reads peer regions as a list or as JSON, trimming trailing slashes', () => {
    expect(loadConfig({ PEER_REGIONS: 'us=https://us.example.com/' }).peerRegions).toEqual({ us: 'https://us.example.com' });
    expect(loadConfig({ PEER_REGIONS: '{"eu":"https://eu.example.com"}' }).peerRegions).toEqual({ eu: 'https://eu.example.com' });
  });

  it('EMBEDDED_PG_FAST (test harness only) is a strict boolean, off by default', () => {
    expect(loadEmbeddedPgFast({})).toBe(false);
    expect(loadEmbeddedPgFast({ EMBEDDED_PG_FAST: '1' })).toBe(true);
    expect(loadEmbeddedPgFast({ EMBEDDED_PG_FAST: 'false' })).toBe(false);
    expect(() => loadEmbeddedPgFast({ EMBEDDED_PG_FAST: 'fast' })).toThrow(
      new ConfigError('EMBEDDED_PG_FAST must be true or false, got "fast"'),
    );
  });

  it('keeps attachments in PostgreSQL unless EVIDENCE_S3_BUCKET is set, and refuses half an S3 configuration', () => {
    expect(loadConfig({}).evidence).toEqual({ store: 'postgres' });
    const s3 = {
      EVIDENCE_S3_ENDPOINT: 'http://minio.storage:9000/',
      EVIDENCE_S3_BUCKET: 'veritrail-evidence',
      EVIDENCE_S3_REGION: 'eu-west-1',
      EVIDENCE_S3_ACCESS_KEY_ID: 'id',
      EVIDENCE_S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).evidence).toEqual({
      store: 's3',
      s3: { endpoint: 'http://minio.storage:9000', bucket: 'veritrail-evidence', region: 'eu-west-1', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true, prefix: '' },
    });
    // AWS itself: no endpoint, virtual-host addressing, the default credential chain.
    expect(loadConfig({ EVIDENCE_S3_BUCKET: 'evidence' }).evidence).toEqual({
      store: 's3',
      s3: { endpoint: undefined, bucket: 'evidence', region: 'us-east-1', accessKeyId: undefined, secretAccessKey: undefined, forcePathStyle: false, prefix: '' },
    });
    expect(() => loadConfig({ ...s3, EVIDENCE_S3_BUCKET: '' })).toThrow(/EVIDENCE_S3_ENDPOINT, EVIDENCE_S3_REGION, EVIDENCE_S3_ACCESS_KEY_ID, EVIDENCE_S3_SECRET_ACCESS_KEY are set but EVIDENCE_S3_BUCKET is not/);
    expect(() => loadConfig({ ...s3, EVIDENCE_S3_SECRET_ACCESS_KEY: '' })).toThrow(/must be set together/);
    expect(() => loadConfig({ ...s3, EVIDENCE_S3_BUCKET: 'Evidence_Bucket' })).toThrow(/EVIDENCE_S3_BUCKET must be an S3 bucket name/);
    expect(() => loadConfig({ ...s3, EVIDENCE_S3_ENDPOINT: 'minio:9000' })).toThrow(/EVIDENCE_S3_ENDPOINT must (be a URL|use http: or https:)/);
    expect(() => loadConfig({ ...s3, EVIDENCE_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow('EVIDENCE_S3_FORCE_PATH_STYLE must be true or false, got "maybe"');
    expect(loadConfig({ ...s3, EVIDENCE_S3_PREFIX: 'prod/eu/' }).evidence).toMatchObject({ s3: { prefix: 'prod/eu/' } });
  });

  it('reads the rate limits, with defaults, 0 turning a limit off', () => {
    expect(loadConfig({}).rateLimit).toEqual({ requests: 6000, anonymousRequests: 600, windowSeconds: 60 });
    expect(loadConfig({ RATE_LIMIT_REQUESTS: '0', RATE_LIMIT_ANONYMOUS_REQUESTS: '10', RATE_LIMIT_WINDOW_SECONDS: '1' }).rateLimit).toEqual({
      requests: 0,
      anonymousRequests: 10,
      windowSeconds: 1,
    });
    expect(() => loadConfig({ RATE_LIMIT_REQUESTS: '100/min' })).toThrow('RATE_LIMIT_REQUESTS must be a whole number of requests from 0 (no limit) to 10000000, got "100/min"');
    expect(() => loadConfig({ RATE_LIMIT_WINDOW_SECONDS: '0' })).toThrow(/RATE_LIMIT_WINDOW_SECONDS must be a whole number of seconds from 1 to 3600/);
  });
});
