import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, region: 'eu', databaseUrl: undefined, migrationsRun: true, role: 'all' });
    expect(config.dataDir).toMatch(/\.data$/);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ REGION: 'asia' }, /REGION must be eu or us/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    [{ PUBLIC_BASE_URL: 'not a url' }, /PUBLIC_BASE_URL must be a URL/],
    [{ PEER_REGIONS: 'mars=https://x' }, /unknown region "mars"/],
    [{ PEER_REGIONS: 'us' }, /must be region=url/],
    [{ ADMIN_TOKEN: 'short' }, /at least 16/],
    [{ MIGRATIONS_RUN: 'maybe' }, /MIGRATIONS_RUN/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('rejects %j with one clear message', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(message);
  });

  it('reads peer regions as a list or as JSON, trimming trailing slashes', () => {
    expect(loadConfig({ PEER_REGIONS: 'us=https://us.example.com/' }).peerRegions).toEqual({ us: 'https://us.example.com' });
    expect(loadConfig({ PEER_REGIONS: '{"eu":"https://eu.example.com"}' }).peerRegions).toEqual({ eu: 'https://eu.example.com' });
  });
});
