import { canonicalJson } from '../domain/canonical-json';

/** The input document a policy sees: `input.trails` sorted by flow then trail; `input.trail` when there is one. */
export function inputDocument(trails: Array<Record<string, unknown>>): Record<string, unknown> {
  const sorted = [...trails].sort((a, b) => compare(a, b));
  return sorted.length === 1 ? { trails: sorted, trail: sorted[0] } : { trails: sorted };
}

/** Canonical JSON of each element, computed once per element object (elements are never modified). */
const canonicalTexts = new WeakMap<object, string>();

/**
 * The canonical JSON text of an input document made by inputDocument, composed from its elements' texts
 * (equal to canonicalJson(document), without walking a cached element again): what is hashed and what the
 * engine parses.
 */
export function canonicalInput(document: Record<string, unknown>): string {
  const text = (element: Record<string, unknown>) => {
    let t = canonicalTexts.get(element);
    if (t === undefined) canonicalTexts.set(element, (t = canonicalJson(element)));
    return t;
  };
  const trails = `[${(document.trails as Array<Record<string, unknown>>).map(text).join(',')}]`;
  return document.trail ? `{"trail":${text(document.trail as Record<string, unknown>)},"trails":${trails}}` : `{"trails":${trails}}`;
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
