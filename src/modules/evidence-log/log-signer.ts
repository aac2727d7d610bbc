import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { JsonLogger } from '../../common/logging/json-logger';
import { DsseSigner, emptyCheckpoint, formatVerifierKey, keyIdHex, signCheckpoint } from '../../../libs/transparency/src';
import { loadSigningKey, LoadedSigningKey } from './log-signing-key';
import { LogSequencer } from './log-sequencer';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';
import { SigningKeyRepository } from './persistence/signing-key.repository';

/**
 * Holds the log's signing key, runs the sequencer and signs checkpoints: every LOG_SEQUENCE_INTERVAL_MS the
 * queued entries are integrated, and at most every LOG_CHECKPOINT_INTERVAL_MS each org whose log grew gets one
 * checkpoint of its current size, signed right after an integration by a round timed to sign as the interval
 * ends: under steady load an entry waits at most one interval plus one round's duration (README, "Latency").
 * `signDue()` is the whole of one round, integration and signing at once (tests call it).
 */
@Injectable()
export class LogSigner implements OnApplicationBootstrap, OnApplicationShutdown {
  private key?: LoadedSigningKey;
  private timer?: NodeJS.Timeout;
  /** Fires when the checkpoint interval since the last signing has elapsed (a round that signs then). */
  private dueTimer?: NodeJS.Timeout;
  private round: Promise<void> = Promise.resolve();
  private busy = false;
  private stopped = false;
  /** When the last checkpoint was signed (0: none yet by this process, so the first growth is signed at once). */
  private lastSigned = 0;
  /** This process integrated entries since it last looked for grown logs. */
  private grewSince = false;
  /** When it last looked for grown logs. */
  private lookedAt = 0;
  /** The signing round came due while another round ran. */
  private duePending = false;

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
    if (this.config.role !== 'api') {
      this.timer = setInterval(() => void this.tick(), this.config.evidenceLog.sequenceIntervalMs);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.stopped = true;
    await this.round;
  }

  origin(orgName: string): string {
    return `${this.config.evidenceLog.origin}/${orgName}`;
  }

  /**
   * Integrates what is queued, then signs a checkpoint for every org whose log grew since its last one, at once
   * (whatever the interval). Rounds never overlap.
   */
  signDue(): Promise<void> {
    return this.schedule('now');
  }

  /**
   * The timer's round: integrates; signs too when the checkpoint interval has elapsed since the last signing
   * (right after integrating, so the checkpoint covers everything committed before the round). `due` is the
   * round started ahead of the interval's end by the time the last signing round took to integrate: it
   * integrates, waits for the interval's end if it is not there yet, and signs. A busy round is skipped.
   */
  private tick(due = false): Promise<void> {
    if (this.stopped) return this.round;
    if (this.busy) {
      // A due round is not dropped behind a sequencing round: it runs as soon as that one ends.
      if (due) this.duePending = true;
      return this.round;
    }
    if (due) return this.schedule('at-interval');
    return this.schedule(Date.now() - this.lastSigned >= this.config.evidenceLog.checkpointIntervalMs ? 'at-interval' : 'no');
  }

  private schedule(sign: 'now' | 'at-interval' | 'no'): Promise<void> {
    this.busy = true;
    this.round = this.round
      .then(async () => {
        const started = Date.now();
        // An explicit round waits for another process's round to end (so what committed before it is integrated when it returns).
        if ((await this.sequencer.integrate(sign === 'now')) > 0) this.grewSince = true;
        if (sign === 'no') return;
        // Idle: no need to look for grown logs every round (another process's growth is looked for once an interval).
        if (sign === 'at-interval' && !this.grewSince && started - this.lookedAt < this.config.evidenceLog.checkpointIntervalMs) return;
        this.grewSince = false;
        this.lookedAt = started;
        const integrating = Date.now() - started;
        // Never two signings closer than the interval (an early `due` round waits for it).
        const early = this.lastSigned + this.config.evidenceLog.checkpointIntervalMs - Date.now();
        if (sign === 'at-interval' && early > 0) await new Promise((resolve) => setTimeout(resolve, early + 1));
        if ((await this.signRound()) > 0 && this.timer && !this.stopped) {
          // The next signing may come one interval after this one: its round starts that much earlier than
          // the interval's end as this one took to integrate, so it signs at the end, not a round later.
          if (this.dueTimer) clearTimeout(this.dueTimer);
          const ahead = Math.min(integrating, this.config.evidenceLog.checkpointIntervalMs / 2);
          this.dueTimer = setTimeout(() => void this.tick(true), Math.max(0, this.config.evidenceLog.checkpointIntervalMs - ahead));
          this.dueTimer.unref();
        }
      })
      .catch((error) => {
        this.logger.warn(`evidence log: sequencing or checkpoint round failed: ${(error as Error)?.message}`, 'EvidenceLog');
      })
      .finally(() => {
        this.busy = false;
        if (this.duePending) {
          this.duePending = false;
          void this.tick(true);
        }
      });
    return this.round;
  }

  /** Signs one checkpoint per org whose log grew; answers how many. The interval counts from its end. */
  private async signRound(): Promise<number> {
    const grown = await this.log.grown();
    if (!grown.length) return 0;
    for (const org of grown) {
      const root = await this.log.rangeHash(org.orgId, 0, org.size);
      const note = signCheckpoint({ origin: this.origin(org.orgName), size: org.size, rootHash: root }, [this.signer()]);
      await this.log.saveCheckpoint(org.orgId, { size: org.size, root, note });
    }
    // After the last signature of the round: the next round's first is at least an interval later.
    this.lastSigned = Date.now();
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
