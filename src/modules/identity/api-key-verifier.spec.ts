import { Clock } from '../../common/clock/clock';
import { PgNotifications } from '../../database/pg-notifications';
import { ApiKeyVerifier } from './api-key-verifier';
import { CREDENTIALS_CHANNEL } from './domain/credential-change';
import { ApiKeyRepository, KeyOwnerRow } from './persistence/api-key.repository';

class StillClock extends Clock {
  now(): number {
    return 1_800_000_000_000;
  }
}

/** Stands in for the LISTEN connection: the test says whether it is up and delivers notifications by hand. */
class FakeNotifications {
  listening = true;
  readonly handlers = new Map<string, (payload: string) => void>();
  readonly stateListeners: Array<(up: boolean) => void> = [];
  on(channel: string, handler: (payload: string) => void) {
    this.handlers.set(channel, handler);
  }
  onStateChange(listener: (up: boolean) => void) {
    this.stateListeners.push(listener);
  }
  deliver(payload: string) {
    this.handlers.get(CREDENTIALS_CHANNEL)!(payload);
  }
  setListening(up: boolean) {
    this.listening = up;
    for (const l of this.stateListeners) l(up);
  }
}

const row = (over: Partial<KeyOwnerRow> = {}): KeyOwnerRow => ({
  key_id: 'k1',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  user_id: null,
  email: null,
  service_account_id: 'sa1',
  sa_name: 'bot',
  sa_org_id: 'org1',
  sa_role: 'member',
  ...over,
});

describe('ApiKeyVerifier cache', () => {
  let stored: KeyOwnerRow;
  let lookups: number;
  let notifications: FakeNotifications;
  let verifier: ApiKeyVerifier;
  /** Lets a test run code while a lookup is in flight. */
  let duringLookup: (() => void) | null;

  beforeEach(() => {
    stored = row();
    lookups = 0;
    duringLookup = null;
    notifications = new FakeNotifications();
    const repo = {
      findOwnerByHash: async () => {
        lookups++;
        const answer = { ...stored };
        duringLookup?.();
        return answer;
      },
      touch: async () => undefined,
    } as unknown as ApiKeyRepository;
    verifier = new ApiKeyVerifier(repo, new StillClock(), notifications as unknown as PgNotifications);
  });

  it('answers from the cache while notifications arrive', async () => {
    await verifier.verify('vtk_x');
    await verifier.verify('vtk_x');
    expect(lookups).toBe(1);
  });

  it('a notification about the key, its account or another key drops exactly what it should', async () => {
    await verifier.verify('vtk_x');
    notifications.deliver('key:other');
    await verifier.verify('vtk_x');
    expect(lookups).toBe(1);
    stored = row({ revoked_at: new Date() });
    notifications.deliver('key:k1');
    expect(await verifier.verify('vtk_x')).toBeNull();
    stored = row({ sa_role: 'admin' });
    notifications.deliver('service_account:sa1');
    expect((await verifier.verify('vtk_x'))?.role).toBe('admin');
    expect(lookups).toBe(3);
  });

  it('does not cache while not listening, and forgets everything when listening resumes', async () => {
    await verifier.verify('vtk_x');
    notifications.setListening(false);
    await verifier.verify('vtk_x');
    await verifier.verify('vtk_x');
    expect(lookups).toBe(3);
    notifications.setListening(true);
    await verifier.verify('vtk_x');
    await verifier.verify('vtk_x');
    expect(lookups).toBe(4);
  });

  it('a lookup in flight when a notification arrives does not cache its answer', async () => {
    duringLookup = () => notifications.deliver('key:k1');
    await verifier.verify('vtk_x');
    duringLookup = null;
    await verifier.verify('vtk_x');
    expect(lookups).toBe(2);
  });
});
