/**
 * The one way tests wait: poll a condition until it holds, never a fixed sleep.
 * `check` returns the value waited for; undefined, null or false means "not yet".
 * Gives up with an error naming `what` after `timeoutMs` (a deadline, not a timing assertion).
 */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
}

export async function waitFor<T>(
  check: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { timeoutMs = 30_000, intervalMs = 20, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await pause(intervalMs);
  }
}

/** Like waitFor, but answers undefined at the deadline instead of throwing (for checks that expect a give-up). */
export async function waitOrGiveUp<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<Exclude<T, undefined | null | false> | undefined> {
  try {
    return await waitFor(check, options);
  } catch {
    return undefined;
  }
}

/**
 * A load generator's back-off after a refused connection, so its loops do not spin while a service is down.
 * Not a wait for a condition: tests wait with waitFor. Kept here, the one file where timers live.
 */
export function backOff(ms: number): Promise<void> {
  return pause(ms);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
