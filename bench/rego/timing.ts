/** Timing helpers shared by the Rego benchmarks. */

/** CPU time of this process (user + system), in ms: on a loaded machine it leaves out the time spent waiting. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times `a` and `b` in `runs` paired rounds after three untimed warm-ups of each. Which side goes
 * first alternates, so neither always runs on a warmer cache; `ratios` holds a/b per round.
 */
export function pairedRounds(a: () => void, b: () => void, runs: number, clock: () => number = nowMs): { ta: number[]; tb: number[]; ratios: number[] } {
  for (let i = 0; i < 3; i++) {
    a();
    b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < runs; i++) {
    const first = i % 2 === 0;
    let t = clock();
    if (first) a();
    else b();
    const d1 = clock() - t;
    t = clock();
    if (first) b();
    else a();
    const d2 = clock() - t;
    const [x, y] = first ? [d1, d2] : [d2, d1];
    ta.push(x);
    tb.push(y);
    ratios.push(x / y);
  }
  return { ta, tb, ratios };
}
