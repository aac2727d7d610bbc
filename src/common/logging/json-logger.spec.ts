import { JsonLogger } from './json-logger';
import { requestContext } from './request-context';

describe('JsonLogger', () => {
  const capture = (format: 'json' | 'pretty') => {
    const out: string[] = [];
    return { out, logger: new JsonLogger('debug', format, (line) => out.push(line)) };
  };

  it('stamps request_id on every line written inside a request, whoever writes it, and on none outside', async () => {
    const { out, logger } = capture('json');
    logger.info('booting');
    await requestContext.run({ requestId: 'req-1' }, async () => {
      logger.info('in the handler', { org: 'acme' });
      await new Promise((resolve) => setImmediate(resolve));
      // Nest's own logger calls: message, then the context name.
      logger.log('in a later tick', 'RoutesResolver');
      setImmediate(() => logger.warn('in work the request started'));
    });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.msg, l.request_id])).toEqual([
      ['booting', undefined],
      ['in the handler', 'req-1'],
      ['in a later tick', 'req-1'],
      ['in work the request started', 'req-1'],
    ]);
    expect(lines[1]).toMatchObject({ level: 'info', org: 'acme' });
    expect(lines[2]).toMatchObject({ context: 'RoutesResolver' });
    expect(out.every((l) => l.endsWith('}\n'))).toBe(true);
  });

  it('writes one readable line per entry in the pretty format', () => {
    const { out, logger } = capture('pretty');
    requestContext.run({ requestId: 'req-2' }, () => logger.error('unexpected error', { status: 500, detail: 'two words' }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR unexpected error {2}request_id=req-2 status=500 detail="two words"\n$/);
  });
});
