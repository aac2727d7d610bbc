import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { startTestApp, TestApp } from '../support/test-app';

const ROOT = path.resolve(__dirname, '../..');

/** Database settings from the environment reach the pool, and a bad one stops the service with one line. */
describe('database configuration', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '3', DATABASE_STATEMENT_TIMEOUT_MS: '12345' });
  });
  afterAll(() => t.close());

  it('every connection has the configured statement timeout, and the pool the configured size', async () => {
    const [{ statement_timeout }] = await t.dataSource.query('SHOW statement_timeout');
    expect(statement_timeout).toBe('12345ms');
    expect((t.dataSource.driver as any).master.options.max).toBe(3);
  });

  it.each([
    ['DATABASE_STATEMENT_TIMEOUT_MS', '30s'],
    ['DATABASE_POOL_SIZE', 'abc'],
  ])('%s=%s stops start-up with one clear line', (name, value) => {
    const env = { ...process.env, [name]: value, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'silent' };
    const run = spawnSync(process.execPath, ['dist/src/main.js'], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^Configuration error: ${name} must be .*, got "${value}"\\n$`));
  });
});
