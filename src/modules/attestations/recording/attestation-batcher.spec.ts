import { Clock, Timer } from '../../../common/clock/clock';
import { Metrics } from '../../../common/metrics/metrics';
import { AttestationBatcher } from './attestation-batcher';
import { EvidenceStoreUnavailableError } from '../evidence-errors';
import { GroupCommittedError, RecordAttestationInput } from './attestation-recorder';

const input = (trailName: string, flowName = 'f'): RecordAttestationInput =>
  ({ orgId: 'o', flowName, trailName, actor: 'a', type: {} as any, data: {} }) as RecordAttestationInput;
const recorded = (i: RecordAttestationInput) => ({ attestationIds: [i.trailName], flowId: 'f', trailId: i.trailName, momentNumber: 1, trailCreated: false });

/** A clock the test moves, and a timer the test fires: the batcher's waits happen when the test says. */
class TestTime {
  now = 1_000_000;
  readonly waits: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
  readonly clock: Clock = { now: () => this.now };
  readonly timer: Timer = {
    after: (ms, run) => {
      const wait = { ms, run, cancelled: false };
      this.waits.push(wait);
      return { cancel: () => (wait.cancelled = true) };
    },
  };
  /** Fires the pending wait (the one not cancelled nor fired). */
  fire(): void {
    const pending = this.waits.filter((w) => !w.cancelled);
    expect(pending).toHaveLength(1);
    pending[0].cancelled = true;
    pending[0].run();
  }
}

/** `uow.run` as the unit of work runs it; `options.run` may replace it (a commit that fails, for instance). */
function setup(fast: (inputs: RecordAttestationInput[]) => Promise<any>, time = new TestTime(), options: { run?: (work: (m: unknown) => Promise<unknown>) => Promise<unknown> } = {}) {
  const calls: string[] = [];
  const recorder = {
    recordGroupAtOnce: jest.fn(async (inputs: RecordAttestationInput[]) => {
      calls.push(`fast:${inputs.map((i) => i.trailName).join(',')}`);
      return fast(inputs);
    }),
    prepareMany: jest.fn(async (_m: unknown, inputs: RecordAttestationInput[]) => {
      calls.push(`many:${inputs.map((i) => i.trailName).join(',')}`);
      if (inputs.some((i) => i.trailName.startsWith('bad'))) throw new Error('404');
      return inputs.map(recorded);
    }),
    insert: jest.fn(async () => undefined),
    record: jest.fn(async (_m: unknown, i: RecordAttestationInput) => {
      calls.push(`single:${i.trailName}`);
      if (i.trailName.startsWith('bad')) throw new Error(`not found ${i.trailName}`);
      return recorded(i);
    }),
  };
  const uow = { run: options.run ?? ((work: (m: unknown) => Promise<unknown>) => work({})) };
  const logger = { debug: () => undefined };
  const batcher = new AttestationBatcher(uow as any, recorder as any, logger as any, new Metrics({ processMetrics: false }), time.clock, time.timer);
  return { calls, recorder, batcher, time };
}

/** A one-statement path whose groups commit when the test says (`commit()` commits the oldest in flight). */
function heldGroups() {
  const held: Array<() => void> = [];
  const fast = (inputs: RecordAttestationInput[]) => new Promise<any>((resolve) => held.push(() => resolve(inputs.map(recorded))));
  const commit = async () => {
    held.shift()!();
    // let the answers and the next drain run
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { fast, commit };
}

describe('AttestationBatcher', () => {
  it('runs a lone request at once and groups the requests that arrive while it is in flight', async () => {
    const { calls, batcher } = setup(async (inputs) => inputs.map(recorded));
    const results = await Promise.all(['t1', 't2', 't3', 't4'].map((t) => batcher.record(input(t))));
    expect(results.map((r) => r.trailId)).toEqual(['t1', 't2', 't3', 't4']);
    expect(calls).toEqual(['fast:t1', 'fast:t2,t3,t4']);
  });

  it('puts requests of any flows in one group, and splits a group by flow on the general path', async () => {
    const fast = setup(async (inputs) => inputs.map(recorded));
    await Promise.all([input('a', 'f1'), input('b', 'f2'), input('c', 'f3'), input('d', 'f2')].map((i) => fast.batcher.record(i)));
    expect(fast.calls).toEqual(['fast:a', 'fast:b,c,d']);

    const general = setup(async () => null);
    await Promise.all([input('a', 'f1'), input('b', 'f2'), input('c', 'f3'), input('d', 'f2')].map((i) => general.batcher.record(i)));
    expect(general.calls).toEqual(['fast:a', 'single:a', 'fast:b,c,d', 'many:b,d', 'single:c']);
  });

  it('takes the general path when the one-statement path does not apply, trails in name order', async () => {
    const { calls, batcher } = setup(async () => null);
    await Promise.all(['x', 'c', 'b', 'a'].map((t) => batcher.record(input(t))));
    expect(calls).toEqual(['fast:x', 'single:x', 'fast:c,b,a', 'many:a,b,c']);
  });

  it('answers each request on its own when a group fails', async () => {
    const { calls, batcher } = setup(async () => null);
    const results = await Promise.allSettled(['first', 'ok1', 'bad', 'ok2'].map((t) => batcher.record(input(t))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('not found bad');
    expect(calls).toEqual(['fast:first', 'single:first', 'fast:ok1,bad,ok2', 'many:bad,ok1,ok2', 'single:bad', 'single:ok1', 'single:ok2']);
  });

  it('never writes a group twice once it may have committed', async () => {
    const { calls, batcher } = setup(async (inputs) => {
      if (inputs.length > 1) throw new GroupCommittedError('wrote 1 of 2');
      return inputs.map(recorded);
    });
    const results = await Promise.allSettled(['t1', 't2', 't3'].map((t) => batcher.record(input(t))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(calls).toEqual(['fast:t1', 'fast:t2,t3']);
  });

  it('never writes a flow part again when its transaction lost the connection (the commit may have reached the database)', async () => {
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    let transactions = 0;
    const { calls, batcher } = setup(async () => null, new TestTime(), {
      run: async (work) => {
        transactions++;
        const result = await work({});
        if (transactions === 2) throw lost; // the second transaction (the group t2,t3) committed, unacknowledged
        return result;
      },
    });
    const results = await Promise.allSettled(['t1', 't2', 't3'].map((t) => batcher.record(input(t))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBe(lost);
    expect(calls).toEqual(['fast:t1', 'single:t1', 'fast:t2,t3', 'many:t2,t3']);
    expect(transactions).toBe(2);
  });

  it('refuses only the requests with an attachment when the evidence store is down; the others are recorded', async () => {
    const down = new EvidenceStoreUnavailableError();
    const { calls, batcher } = setup(async (inputs) => {
      if (inputs.some((i) => i.evidence)) throw down;
      return inputs.map(recorded);
    });
    const withFile = { ...input('file'), evidence: { size: 10, sha256Hex: 'ab' } as any };
    const results = await Promise.allSettled([input('t1'), input('t2'), withFile, input('t3')].map((i) => batcher.record(i)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toBe(down);
    expect(calls).toEqual(['fast:t1', 'fast:t2,file,t3', 'many:t2,t3']);
  });

  it('tries an attestation once more when PostgreSQL aborted its transaction to settle a deadlock', async () => {
    const deadlock = { message: 'deadlock detected', driverError: { code: '40P01' } };
    let attempts = 0;
    const { batcher } = setup(async () => null, new TestTime(), {
      run: async (work) => {
        if (++attempts === 1) throw deadlock;
        return work({});
      },
    });
    await expect(batcher.record(input('t1'))).resolves.toMatchObject({ trailId: 't1' });
    expect(attempts).toBe(2);
    // Twice aborted: the error is the answer (a 503 the client retries), no third try.
    attempts = -1;
    const again = setup(async () => null, new TestTime(), {
      run: async () => {
        attempts++;
        throw deadlock;
      },
    });
    await expect(again.batcher.record(input('t2'))).rejects.toBe(deadlock);
    expect(attempts).toBe(1);
  });

  describe('under a steady load, waits after a commit for a fuller group', () => {
    /** r1 alone, then r2..r8 while it is in flight, then the second group (7) in flight. */
    async function loaded() {
      const groups = heldGroups();
      const env = setup(groups.fast);
      const answers: Array<Promise<unknown>> = [];
      const send = (...names: string[]) => names.forEach((n) => answers.push(env.batcher.record(input(n))));
      send('r1');
      send('r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8');
      await groups.commit();
      expect(env.calls).toEqual(['fast:r1', 'fast:r2,r3,r4,r5,r6,r7,r8']);
      expect(env.time.waits).toHaveLength(0);
      return { ...env, ...groups, send, answers };
    }

    it('sends the group once it holds the target, without waiting out the time', async () => {
      const { calls, time, commit, send, answers } = await loaded();
      // 9 waiting at once (7 in flight, 2 queued): the target is 7
      send('r9', 'r10');
      await commit();
      // two queued after the commit: the batcher waits, at most 2 ms
      expect(calls).toHaveLength(2);
      expect(time.waits.map((w) => w.ms)).toEqual([2]);
      send('r11', 'r12', 'r13', 'r14');
      expect(calls).toHaveLength(2);
      send('r15');
      expect(calls[2]).toBe('fast:r9,r10,r11,r12,r13,r14,r15');
      expect(time.waits[0].cancelled).toBe(true);
      await commit();
      await Promise.all(answers);
    });

    it('sends what it has when the wait runs out', async () => {
      const { calls, time, commit, send, answers } = await loaded();
      send('r9', 'r10');
      await commit();
      expect(calls).toHaveLength(2);
      time.fire();
      expect(calls[2]).toBe('fast:r9,r10');
      await commit();
      await Promise.all(answers);
    });

    it('stops waiting once the load has been gone for two seconds', async () => {
      const { calls, time, commit, send, answers } = await loaded();
      await commit();
      time.now += 2_000;
      send('r9');
      send('r10');
      await commit();
      expect(calls.slice(2)).toEqual(['fast:r9', 'fast:r10']);
      expect(time.waits).toHaveLength(0);
      await commit();
      await Promise.all(answers);
    });
  });

  it('stops waiting when the clock is set back, instead of keeping an old peak', async () => {
    const { fast, commit } = heldGroups();
    const { calls, batcher, time } = setup(fast);
    const answers = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'].map((n) => batcher.record(input(n)));
    await commit();
    await commit();
    // The wall clock is stepped back a minute (NTP): the peak of 7 belongs to the future window, not to now.
    time.now -= 60_000;
    answers.push(batcher.record(input('a1')));
    answers.push(batcher.record(input('a2')));
    await commit();
    expect(calls.slice(2)).toEqual(['fast:a1', 'fast:a2']);
    expect(time.waits).toHaveLength(0);
    await commit();
    await Promise.all(answers);
  });

  it('never makes one or two writers wait', async () => {
    const { fast, commit } = heldGroups();
    const { calls, batcher, time } = setup(fast);
    const answers = [batcher.record(input('a1')), batcher.record(input('b1'))];
    await commit();
    answers.push(batcher.record(input('a2')));
    await commit();
    expect(calls).toEqual(['fast:a1', 'fast:b1', 'fast:a2']);
    expect(time.waits).toHaveLength(0);
    await commit();
    await Promise.all(answers);
  });
});
