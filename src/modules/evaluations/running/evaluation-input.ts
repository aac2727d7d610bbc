/** The input document a policy sees: `input.trails` sorted by flow then trail; `input.trail` when there is one. */
export function inputDocument(trails: Array<Record<string, unknown>>): Record<string, unknown> {
  const sorted = [...trails].sort((a, b) => compare(a, b));
  return sorted.length === 1 ? { trails: sorted, trail: sorted[0] } : { trails: sorted };
}

function compare(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const key = (t: Record<string, unknown>) => [String(t.flow_name), String(t.trail_name)];
  const [fa, ta] = key(a);
  const [fb, tb] = key(b);
  return fa < fb ? -1 : fa > fb ? 1 : ta < tb ? -1 : ta > tb ? 1 : 0;
}

/** `time.now_ns()` of an evaluation: its recorded_at (exact decimal seconds) in nanoseconds. */
export function nanosecondsOf(secondsText: string): bigint {
  const [whole, fraction = ''] = secondsText.split('.');
  return BigInt(whole) * 1_000_000_000n + BigInt((fraction + '000000000').slice(0, 9));
}
