import { AppConfig } from '../../common/config/app-config';
import { TrailState, TrailStateReader } from '../trails/trails.module';
import { ArtifactViews } from './artifact-views';
import { ArtifactCatalogReader, CatalogRow } from './persistence/artifact-catalog.reader';

const MB = 1_000_000;
const BLOB = 'x'.repeat(MB);

/** A trail state as the catalog reads it: one artifact slot, one trail-level slot, each with this user_data. */
function state(artifactData: unknown, trailData: unknown = null): TrailState {
  const attestation = (name: string, user_data: unknown) => ({ name, type: 'generic', isCompliant: true, fields: { created_at: 1, user_data } });
  return {
    compliance: {
      status: 'COMPLIANT',
      artifacts: [{ name: 'app', slots: [{ name: 'tests', attestation: attestation('tests', artifactData) }] }],
      trailSlots: [{ name: 'review', attestation: attestation('review', trailData) }],
    },
    template: null,
  } as unknown as TrailState;
}

const row = (trail: string): CatalogRow => ({ id: `report-${trail}`, trail_id: trail, last_moment: 1, template_id: null, template_reference_name: 'app' }) as CatalogRow;

describe('ArtifactViews cache', () => {
  let states: Map<string, TrailState>;
  let reads: string[][];
  let views: ArtifactViews;
  /** What the cache holds, by JSON size (Maps as their entries). */
  const retainedBytes = () => {
    let bytes = 0;
    for (const v of (views as any).states.values()) bytes += JSON.stringify(v, (_k, x) => (x instanceof Map ? [...x] : x)).length;
    return bytes;
  };

  beforeEach(() => {
    states = new Map();
    reads = [];
    const trails = {
      currentStates: async (ts: Array<{ id: string }>) => {
        reads.push(ts.map((t) => t.id));
        return new Map(ts.map((t) => [t.id, states.get(t.id)!]));
      },
    } as unknown as TrailStateReader;
    views = new ArtifactViews({} as ArtifactCatalogReader, trails, { publicBaseUrl: 'http://x' } as AppConfig);
  });

  it('is bounded in bytes: a hundred trails with a megabyte of user_data each keep at most 64 MB', async () => {
    for (let i = 0; i < 100; i++) states.set(`t${i}`, state({ blob: BLOB }));
    for (let i = 0; i < 100; i += 10) {
      const rows = Array.from({ length: 10 }, (_, j) => row(`t${i + j}`));
      const out = await views.compliance(rows);
      expect((out.get(rows[0].id)!.evidence.tests.user_data as any).blob).toHaveLength(MB);
    }
    expect(retainedBytes()).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('keeps what the catalog shows, not the whole trail state: a trail-level slot\'s user_data is not kept', async () => {
    states.set('t1', state({ small: true }, { blob: BLOB }));
    const out = await views.compliance([row('t1')]);
    expect(out.get('report-t1')).toEqual({ state: 'COMPLIANT', template: null, evidence: { tests: expect.objectContaining({ user_data: { small: true } }) } });
    expect(retainedBytes()).toBeLessThan(10_000);
    await views.compliance([row('t1')]);
    expect(reads).toEqual([['t1']]); // the second call is answered from the cache
  });

  it('a summary evicted while the call reads the others is still answered', async () => {
    states.set('a', state({ small: true }));
    await views.compliance([row('a')]);
    // 70 megabyte-sized trails read in the same call push 'a' (the least recently used) out of the cache.
    const others = Array.from({ length: 70 }, (_, i) => `b${i}`);
    for (const id of others) states.set(id, state({ blob: BLOB }));
    const out = await views.compliance([row('a'), ...others.map(row)]);
    expect(out.get('report-a')!.evidence.tests.user_data).toEqual({ small: true });
    expect(out.size).toBe(71);
    expect((views as any).states.has('a:1')).toBe(false);
  });

  it('a call with more trails than the cache can hold answers each of them', async () => {
    states.set('a', state({ small: true }));
    await views.compliance([row('a')]);
    const others = Array.from({ length: 20_001 }, (_, i) => `c${i}`);
    for (const id of others) states.set(id, state({ small: Number(id.slice(1)) }));
    const out = await views.compliance([row('a'), ...others.map(row)]);
    expect(out.size).toBe(20_002);
    expect(out.get('report-a')!.evidence.tests.user_data).toEqual({ small: true });
  });
});
