import { DataSource, EntityManager } from 'typeorm';
import { FlowTemplateRepository } from './flow-template.repository';

describe('FlowTemplateRepository cache', () => {
  function repoWith(sourceOf: (id: string) => string) {
    const query = jest.fn(async (_sql: string, [id]: [string]) => [{ id, version: 1, spec: { version: 1, trail: { attestations: [], artifacts: [] } }, source: sourceOf(id) }]);
    const manager = { query } as unknown as EntityManager;
    const repo = new FlowTemplateRepository({ manager } as unknown as DataSource);
    return { repo, query, cache: (repo as unknown as { cache: { size: number; calculatedSize: number } }).cache };
  }

  it('is bounded by the size of what it holds, not by the number of versions', async () => {
    const { repo, query, cache } = repoWith(() => 'x'.repeat(1_000_000));
    for (let i = 0; i < 100; i++) await repo.get(`t${i}`);
    expect(cache.calculatedSize).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(cache.size).toBeLessThan(40);
    // The latest versions are served from the cache.
    query.mockClear();
    expect((await repo.get('t99'))?.source).toHaveLength(1_000_000);
    expect(query).not.toHaveBeenCalled();
  });

  it('keeps small versions, and does not keep a very large one (read again each time)', async () => {
    const { repo, query } = repoWith((id) => (id === 'big' ? 'y'.repeat(5_000_000) : 'version: 1\n'));
    await repo.get('small');
    await repo.get('small');
    expect(query).toHaveBeenCalledTimes(1);
    expect((await repo.get('big'))?.source).toHaveLength(5_000_000);
    expect((await repo.get('big'))?.source).toHaveLength(5_000_000);
    expect(query).toHaveBeenCalledTimes(3);
  });
});
