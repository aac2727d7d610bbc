import { orderedUuid } from './ordered-uuid';

describe('orderedUuid', () => {
  it('is a version 7 UUID (RFC 9562) whose first 48 bits are the Unix time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 27, 14, 30, 0, 123);
    const id = orderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts as text in the order of the milliseconds it was made in, and is random within one', () => {
    const ids = [0, 1, 255, 256, 65_536, 2 ** 40, 2 ** 47 + 5].map((ms) => orderedUuid(ms));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => orderedUuid(1_800_000_000_000)));
    expect(same.size).toBe(1000);
  });
});
