import { FakeClock } from '../../../test/support/fake-clock';
import { JsonLogger } from '../logging/json-logger';
import { Metrics } from '../metrics/metrics';
import { InsufficientResourcesError } from './resource-errors';
import { ResourceRefusals } from './resource-refusals';

describe('ResourceRefusals', () => {
  const setup = () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = new JsonLogger('info', 'json', (line) => lines.push(JSON.parse(line)));
    const metrics = new Metrics({ processMetrics: false });
    const clock = new FakeClock();
    return { lines, metrics, clock, refusals: new ResourceRefusals(logger, metrics, clock) };
  };
  const full = () => new InsufficientResourcesError('storage', 'database', 'could not extend file: No space left on device');

  it('logs one error line per incident, counts every refusal, and shows the condition while it lasts', async () => {
    const { lines, metrics, clock, refusals } = setup();
    expect(refusals.exhausted('storage')).toBe(false);
    for (let i = 0; i < 5; i++) {
      refusals.record(full(), { requestId: `r${i}` });
      clock.advance(10_000);
    }
    refusals.record(new InsufficientResourcesError('storage', 'files'));
    expect(lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/^out of storage/), resource: 'storage', store: 'database', request_id: 'r0', error: expect.stringMatching(/No space/) }),
    ]);
    expect(refusals.exhausted('storage')).toBe(true);
    expect(refusals.exhausted('memory')).toBe(false);
    const text = await metrics.scrape();
    expect(text).toMatch(/veritrail_resource_refusals_total\{resource="storage",store="database"\} 5/);
    expect(text).toMatch(/veritrail_resource_refusals_total\{resource="storage",store="files"\} 1/);
    expect(text).toMatch(/veritrail_storage_exhausted 1/);

    // A quiet minute ends the incident (one info line); the next refusal opens a new one.
    clock.advance(ResourceRefusals.QUIET_MS + 1);
    expect(await metrics.scrape()).toMatch(/veritrail_storage_exhausted 0/);
    expect(lines.filter((l) => l.level === 'info')).toEqual([expect.objectContaining({ resource: 'storage', refusals: 6 })]);
    refusals.record(full());
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2);
  });
});
