import { TrailMomentResponse } from '../../dto/trail.response';
import { MomentCache } from './moment-cache';

const moment = (n: number): TrailMomentResponse => ({ moment_number: n, created_at: n, template_id: null, compliance_status: {} });

describe('MomentCache', () => {
  it('keeps answers per (trail, moment)', () => {
    const cache = new MomentCache();
    cache.set('t1', 1, moment(1), 100);
    expect(cache.get('t1', 1)).toEqual(moment(1));
    expect(cache.get('t1', 2)).toBeUndefined();
    expect(cache.get('t2', 1)).toBeUndefined();
  });

  it('evicts the least recently used entries beyond its byte budget, and skips huge entries', () => {
    const cache = new MomentCache();
    const mb = 1024 * 1024;
    for (let n = 1; n <= 32; n++) cache.set('t', n, moment(n), mb);
    cache.get('t', 1); // now the most recently used
    cache.set('t', 33, moment(33), mb);
    expect(cache.get('t', 1)).toBeDefined();
    expect(cache.get('t', 2)).toBeUndefined();
    expect(cache.get('t', 33)).toBeDefined();
    cache.set('t', 99, moment(99), 5 * mb);
    expect(cache.get('t', 99)).toBeUndefined();
  });
});
