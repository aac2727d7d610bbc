import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Tests wait one way: `waitFor` / `waitOrGiveUp` from test/support/wait.ts poll a condition until it holds. A
 * fixed sleep (a promise resolved by a timer) makes a test slow on a fast machine and flaky on a loaded one, and
 * a second polling helper drifts from the first; this spec (in the unit project, so `npm test` runs it) finds
 * both anywhere under test/.
 */
const TEST_ROOT = path.resolve(__dirname, '..');
const WAIT = path.join(TEST_ROOT, 'support', 'wait.ts');

/** Places where a timer is not a wait, each with its reason (none today: a load loop's back-off is wait.ts's `backOff`). */
const ALLOWED: Record<string, string> = {};

/** A promise resolved by a timer (a `new Promise` whose executor only arms `setTimeout`), or the promise-returning timers. */
const SLEEPS: Array<[string, RegExp]> = [
  ['a promise resolved by setTimeout', /new Promise(?:<[^>]*>)?\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{?\s*setTimeout\(\s*(?:\1\s*,|\(\)\s*=>\s*\1\(\s*\)\s*,)/],
  ["node:timers/promises' setTimeout", /from\s+['"](?:node:)?timers\/promises['"]/],
  ['a promisified setTimeout', /promisify\(\s*setTimeout\s*\)/],
];
/** A hand-written poll loop: a sleep inside a loop, or a helper named like one. */
const POLL_HELPERS = /\b(?:async\s+)?function\s+(waitUntil|eventually|within|poll\w*|retryUntil)\s*[<(]/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.(ts|js|mjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

export function findFixedWaits(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [what, pattern] of SLEEPS) if (pattern.test(text)) found.push(`${file}: ${what}`);
  const helper = POLL_HELPERS.exec(text);
  if (helper) found.push(`${file}: a polling helper of its own (${helper[1]})`);
  return found;
}

describe('tests wait one way', () => {
  it('no fixed sleep and no polling helper outside test/support/wait.ts', () => {
    const files = sources(TEST_ROOT).filter((file) => file !== WAIT && file !== __filename);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => {
      const rel = path.relative(TEST_ROOT, file);
      return ALLOWED[rel] ? [] : findFixedWaits(rel, fs.readFileSync(file, 'utf8'));
    });
    expect(found).toEqual([]);
  });

  it('catches each kind of fixed wait (so the check cannot silently stop checking)', () => {
    // (the samples are split so that a plain grep for sleeps over test/ does not find them here)
    expect(findFixedWaits('a', 'await new Promise((r) => ' + 'setTimeout(r, 300));')).toHaveLength(1);
    expect(findFixedWaits('a', 'await new Promise((resolve) => ' + 'setTimeout(resolve, 20));')).toHaveLength(1);
    expect(findFixedWaits('a', 'await new Promise<void>(resolve => { setTimeout(() => resolve(), 5) });')).toHaveLength(1);
    expect(findFixedWaits('a', "import { setTimeout as sleep } from 'node:timers/promises';")).toHaveLength(1);
    expect(findFixedWaits('a', 'const sleep = promisify(setTimeout);')).toHaveLength(1);
    expect(findFixedWaits('a', 'async function eventually(ms: number) {}')).toHaveLength(1);
    // a deadline that rejects, and a client that aborts later, are not waits
    expect(findFixedWaits('a', "new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 20_000))")).toEqual([]);
    expect(findFixedWaits('a', 'req.write(b, () => setTimeout(() => req.destroy(), 200));')).toEqual([]);
  });
});
