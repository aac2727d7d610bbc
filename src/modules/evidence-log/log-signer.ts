import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { JsonLogger } from '../../common/logging/json-logger';
import { DsseSigner, emptyCheckpoint, formatVerifierKey, keyIdHex, signCheckpoint } from '../../../libs/transparency/src';
import { CheckpointSchedule } from './checkpoint-schedule';
import { loadSigningKey, LoadedSigningKey } from './log-signing-key';
import { BATCHES_PER_TIMER_ROUND, Integrated, LogSequencer } from './log-sequencer';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';
import { SigningKeyRepository } from './persistence/signing-key.repository';

/**
 * Holds the log's signing key, runs the sequencer and signs checkpoints: every LOG_SEQUENCE_INTERVAL_MS the
 * queued entries are integrated, and each org whose log grew gets a checkpoint of its current size, signed right
 * after an integration, so that a committed entry waits at most LOG_CHECKPOINT_INTERVAL_MS for a signed checkpoint
 * that covers it (`CheckpointSchedule` picks the last round that keeps that bound; README, "Latency").
 * `signDue()` is the whole of one round, integration and signing at once (tests call it).
 */
@Injectable()
export class LogSigner implements OnApplicationBootstrap, OnApplicationShutdown {
  private key?: LoadedSigningKey;
  private timer?: NodeJS.Timeout;
  private round: Promise<void> = Promise.resolve();
  private busy = false;
  private stopped = false;
  private schedule?: CheckpointSchedule;
  /** When this process last looked for logs grown by another process's rounds (monotonic clock). */
  private lookedAt = -Infinity;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly log: EvidenceLogRepository,
    private readonly keys: SigningKeyRepository,
    private readonly sequencer: LogSequencer,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.key = loadSigningKey(this.config.evidenceLog, this.config.dataDir);
    await this.keys.activate({ keyId: this.key.keyIdHex, name: this.key.signer.name, publicKey: this.key.signer.publicKey });
    const vkey = formatVerifierKey(this.key.signer);
    if (this.key.source === 'generated') {
      this.logger.log(`evidence log: generated a signing key into ${this.key.file} (set LOG_SIGNING_KEY or LOG_SIGNING_KEY_FILE to choose one); verifier key ${vkey}`, 'EvidenceLog');
    } else {
      this.logger.log(`evidence log: signing key from ${this.key.source}; verifier key ${vkey}`, 'EvidenceLog');
    }
    this.schedule = new CheckpointSchedule(this.config.evidenceLog.checkpointIntervalMs, this.config.evidenceLog.sequenceIntervalMs);
    if (this.config.role !== 'api') {
      this.timer = setInterval(() => void this.tick(), this.config.evidenceLog.sequenceIntervalMs);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopped = true;
    await this.round;
  }

  origin(orgName: string): string {
    return `${this.config.evidenceLog.origin}/${orgName}`;
  }

  /**
   * Integrates what is queued, then signs a checkpoint for every org whose log grew since its last one, at once
   * (whatever the schedule). Rounds never overlap.
   */
  signDue(): Promise<void> {
    return this.run('now');
  }

  /** The timer's round; skipped while one runs (the next tick comes one sequencing interval later). */
  private tick(): Promise<void> {
    if (this.stopped || this.busy) return this.round;
    return this.run('when-due');
  }

  private run(sign: 'now' | 'when-due'): Promise<void> {
    this.busy = true;
    this.round = this.round
      .then(async () => {
        const schedule = this.schedule!;
        // A monotonic clock: a step of the wall clock neither holds signing back nor makes every round sign.
        const started = performance.now();
        let integrated: Integrated;
        try {
          // An explicit round waits for another process's round to end (so what committed before it is integrated when it returns).
          integrated = await this.sequencer.integrate(sign === 'now', sign === 'now' ? Infinity : BATCHES_PER_TIMER_ROUND);
        } catch (error) {
          schedule.failed(started);
          throw error;
        }
        const now = performance.now();
        schedule.integrated(started, now, integrated.count, integrated.oldestAgeMs);
        // Growth integrated by another process is looked for once an interval.
        const othersDue = !schedule.waiting() && now - this.lookedAt >= this.config.evidenceLog.checkpointIntervalMs;
        if (sign === 'now' || schedule.due(started, now) || othersDue) {
          this.lookedAt = now;
          await this.signRound();
          schedule.signed(performance.now() - now);
        }
      })
      .catch((error) => {
        this.logger.warn(`evidence log: sequencing or checkpoint round failed: ${(error as Error)?.message}`, 'EvidenceLog');
      })
      .finally(() => {
        this.busy = false;
      });
    return this.round;
  }

  /** Signs one checkpoint per org whose log grew; answers how many. */
  private async signRound(): Promise<number> {
    const grown = await this.log.grown();
    if (!grown.length) return 0;
    for (const org of grown) {
      const root = await this.log.rangeHash(org.orgId, 0, org.size);
      const note = signCheckpoint({ origin: this.origin(org.orgName), size: org.size, rootHash: root }, [this.signer()]);
      await this.log.saveCheckpoint(org.orgId, { size: org.size, root, note });
    }
    return grown.length;
  }

  /** The signed empty checkpoint (size 0, root SHA-256("")), for an org that has logged nothing yet. */
  emptyNote(orgName: string): string {
    const cp = emptyCheckpoint(this.origin(orgName));
    return signCheckpoint(cp, [this.signer()]);
  }

  /** The active key as a DSSE signer (signed decisions are signed with the log's key; keyid = its note key id). */
  dsseSigner(): DsseSigner {
    const signer = this.signer();
    return { keyId: signer.keyId, privateKey: signer.privateKey };
  }

  activeKeyId(): string {
    return keyIdHex(this.signer().keyId);
  }

  private signer() {
    if (!this.key) throw new Error('evidence log signing key not loaded yet');
    return this.key.signer;
  }
}
