import { JsonLogger } from '../common/logging/json-logger';
import { JobQueue } from './job-queue';

const schemaVersion: number = require('pg-boss/version.json').schema;

/** A connection pool that fails while `down`, then answers pg-boss's start-up checks and a send. */
function flakyPool() {
  const state = { down: true, queries: 0 };
  const query = async (text: string) => {
    state.queries++;
    if (state.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    if (text.includes('to_regclass')) return { rows: [{ name: 'pgboss.version' }] };
    if (/SELECT version from/i.test(text)) return { rows: [{ version: schemaVersion }] };
    return { rows: [{ id: 'job-1', name: 'q', policy: 'standard' }] };
  };
  return { state, dataSource: { driver: { master: { query } } } };
}

describe('JobQueue start', () => {
  it('does not keep a failed first start: once the database answers again, the next send starts the queue', async () => {
    const { state, dataSource } = flakyPool();
    const queue = new JobQueue(dataSource as any, { role: 'api' } as any, new JsonLogger('silent'));
    await expect(queue.send('q', { n: 1 })).rejects.toThrow(/ECONNREFUSED/);
    const afterFailure = state.queries;
    state.down = false;
    await expect(queue.send('q', { n: 2 })).resolves.toBe('job-1');
    expect(state.queries).toBeGreaterThan(afterFailure);
    await queue.onApplicationShutdown();
  });

  it('shares one start between concurrent first uses', async () => {
    const { state, dataSource } = flakyPool();
    state.down = false;
    const queue = new JobQueue(dataSource as any, { role: 'api' } as any, new JsonLogger('silent'));
    const checks = () => state.queries;
    await Promise.all([queue.send('q', { n: 1 }), queue.send('q', { n: 2 })]);
    const once = checks();
    await queue.send('q', { n: 3 });
    // The third send neither starts again nor looks the queue up again: one insert.
    expect(checks()).toBe(once + 1);
    await queue.onApplicationShutdown();
  });
});
