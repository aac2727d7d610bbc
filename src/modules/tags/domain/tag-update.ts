/** Tag keys, as the reference writes them. */
export const TAG_KEY = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;
export const MAX_TAG_VALUE_LENGTH = 256;
export const MAX_TAGS = 50;

export class TooManyTagsError extends Error {
  constructor(readonly count: number) {
    super(`a resource holds at most ${MAX_TAGS} tags; this update would leave ${count}`);
  }
}

/** What is wrong with each entry of a `set_tags` map, keyed by tag key ('' for the map as a whole), or null. */
export function tagMapProblems(value: unknown): Record<string, string> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { '': 'must be an object mapping a tag key to a string value' };
  const out: Record<string, string> = {};
  for (const [key, tag] of Object.entries(value)) {
    if (!TAG_KEY.test(key)) out[key] = `tag key must match ${TAG_KEY.source}`;
    else if (typeof tag !== 'string') out[key] = 'must be a string';
    else if (tag.length > MAX_TAG_VALUE_LENGTH) out[key] = `must be at most ${MAX_TAG_VALUE_LENGTH} characters`;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * The tags after an update: every `set` entry is set (added or replaced), then every `remove` key removed
 * (removals win; removing an absent key is fine). At most MAX_TAGS may remain.
 */
export function applyTagUpdate(current: Readonly<Record<string, string>>, set: Readonly<Record<string, string>>, remove: readonly string[]): Record<string, string> {
  const next: Record<string, string> = { ...current, ...set };
  for (const key of remove) delete next[key];
  const count = Object.keys(next).length;
  if (count > MAX_TAGS) throw new TooManyTagsError(count);
  return Object.fromEntries(Object.keys(next).sort().map((key) => [key, next[key]]));
}
