import { Metrics } from '../../../common/metrics/metrics';
import { AttestationBatcher } from './attestation-batcher';
import { GroupCommittedError, RecordAttestationInput } from './attestation-recorder';

const input = (trailName: string, flowName = 'f'): RecordAttestationInput =>
  ({ orgId: 'o', flowName, trailName, actor: 'a', type: {} as any, data: {} }) as RecordAttestationInput;
const recorded = (i: RecordAttestationInput) => ({ attestationIds: [i.trailName], flowId: 'f', trailId: i.trailName, momentNumber: 1, trailCreated: false });

function setup(fast: (inputs: RecordAttestationInput[]) => Promise<any>) {
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
  const uow = { run: (work: (m: unknown) => Promise<unknown>) => work({}) };
  const logger = { debug: () => undefined };
  return { calls, recorder, batcher: new AttestationBatcher(uow as any, recorder as any, logger as any, new Metrics({ processMetrics: false })) };
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
});
