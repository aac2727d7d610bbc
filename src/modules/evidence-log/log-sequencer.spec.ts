import { EntityManager } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { EvidenceLog, LogAppend, LogRenderer, LogSource } from './evidence-log';
import { LogSequencer } from './log-sequencer';
import { EvidenceLogRepository, QueuedEntry, ReadyEntry } from './persistence/evidence-log.repository';

/** Record i as its kind's read route would give it. */
function record(i: number): LogAppend {
  return {
    orgId: 'org-1',
    org: 'acme',
    kind: 'attestation',
    id: `record-${i}`,
    record: { attestation_id: `record-${i}`, user_data: { filler: 'x'.repeat(800) } },
    recordedAt: '2026-11-27T16:40:00.000001Z',
  };
}

/**
 * The sequencer's round with its database replaced: `count` committed records, from a source (records that are
 * their own queue) or queued by reference and read by their kind's renderer, each built into its leaf by the real
 * code. A probe counts the event loop's turns (a setImmediate that schedules itself) from the moment the records
 * are read to the moment the round writes their entries.
 */
async function round(count: number, via: 'source' | 'queue' = 'source'): Promise<{ entries: ReadyEntry[]; turnsWhileBuilding: number }> {
  let turns = 0;
  let probing = true;
  const probe = () => {
    turns++;
    if (probing) setImmediate(probe);
  };
  let turnsAtRead = 0;
  let turnsAtWrite = 0;
  let written: ReadyEntry[] = [];
  const manager = {} as EntityManager;
  const repository = {
    asSequencer: <T>(work: (m: EntityManager) => Promise<T>) => work(manager),
    drain: async (): Promise<QueuedEntry[]> =>
      via === 'queue'
        ? Array.from({ length: count }, (_, i) => ({ orgId: 'org-1', kind: 'attestation', recordId: `record-${i}`, queuedAt: new Date(0), leaf: null, leafHash: null, ref: { i } }))
        : [],
    cursors: async () => [],
    firstDesignLoggedUntil: async () => null,
    alreadyLogged: async () => new Set<string>(),
    integrate: async (_m: EntityManager, entries: ReadyEntry[]) => {
      turnsAtWrite = turns;
      written = entries;
    },
    advance: async () => undefined,
    ageOf: async () => 0,
  } as unknown as EvidenceLogRepository;
  const source: LogSource = {
    next: async () => {
      turnsAtRead = turns;
      return via === 'source' ? Array.from({ length: count }, (_, i) => ({ stream: 'flow-1', position: i + 1, item: record(i) })) : [];
    },
    render: async () => [],
  };
  const renderer: LogRenderer = async (refs) => {
    turnsAtRead = turns;
    return refs.map((ref) => record(Number(ref.ref.i)));
  };
  const evidenceLog = { allSources: () => (via === 'source' ? [['attestation', source]] : []), renderer: () => renderer } as unknown as EvidenceLog;
  const sequencer = new LogSequencer(repository, evidenceLog, new JsonLogger('error', 'json'));
  setImmediate(probe);
  try {
    await sequencer.integrate();
  } finally {
    probing = false;
  }
  return { entries: written, turnsWhileBuilding: turnsAtWrite - turnsAtRead };
}

describe.each(['source', 'queue'] as const)('LogSequencer round, records read from a %s', (via) => {
  it('builds a busy second of leaves in slices, giving the event loop a turn between them (requests and group commits are not held up)', async () => {
    const { entries, turnsWhileBuilding } = await round(640, via);
    expect(entries).toHaveLength(640);
    expect(entries.map((e) => e.recordId)).toEqual(Array.from({ length: 640 }, (_, i) => `record-${i}`));
    // 640 leaves, 64 per turn: at least 9 turns of the loop happen between the read and the write.
    expect(turnsWhileBuilding).toBeGreaterThanOrEqual(9);
  });

  it('builds a small round without waiting for a turn', async () => {
    const { entries, turnsWhileBuilding } = await round(10, via);
    expect(entries).toHaveLength(10);
    expect(turnsWhileBuilding).toBe(0);
  });
});

describe('LogSequencer over a backlog', () => {
  /** A source with `batches` full batches (2,000 records each) committed, and then `tail` more. */
  function backlog(batches: number, tail: number) {
    let position = 0;
    const total = batches * 2000 + tail;
    const transactions: number[] = [];
    const repository = {
      asSequencer: <T>(work: (m: EntityManager) => Promise<T>) => work({} as EntityManager),
      drain: async (): Promise<QueuedEntry[]> => [],
      cursors: async () => [{ stream: 'flow-1', position }],
      firstDesignLoggedUntil: async () => null,
      alreadyLogged: async () => new Set<string>(),
      integrate: async (_m: EntityManager, entries: ReadyEntry[]) => {
        transactions.push(entries.length);
      },
      advance: async (_m: EntityManager, _kind: string, positions: Map<string, number>) => {
        position = positions.get('flow-1') ?? position;
      },
      ageOf: async () => 0,
    } as unknown as EvidenceLogRepository;
    const source: LogSource = {
      next: async (_m, positions, limit) => {
        const from = positions[0]?.position ?? 0;
        const n = Math.min(limit, total - from);
        return Array.from({ length: n }, (_, i) => ({ stream: 'flow-1', position: from + i + 1, item: record(from + i) }));
      },
      render: async () => [],
    };
    const evidenceLog = { allSources: () => [['attestation', source]] } as unknown as EvidenceLog;
    return { sequencer: new LogSequencer(repository, evidenceLog, new JsonLogger('error', 'json')), transactions, total };
  }

  it('takes a backlog over several rounds when given a budget, saying there is more, so the signer can sign between them', async () => {
    const { sequencer, transactions, total } = backlog(5, 7);
    const first = await sequencer.integrate(false, 2);
    expect(first).toMatchObject({ count: 4000, more: true });
    const second = await sequencer.integrate(false, 2);
    expect(second).toMatchObject({ count: 4000, more: true });
    const last = await sequencer.integrate(false, 2);
    expect(last.count).toBe(2007);
    expect(last.more).toBeUndefined();
    expect(transactions.reduce((a, b) => a + b, 0)).toBe(total);
  });

  it('takes the whole backlog in one call without a budget (an explicit round)', async () => {
    const { sequencer, total } = backlog(3, 1);
    expect(await sequencer.integrate(true)).toMatchObject({ count: total });
  });
});
