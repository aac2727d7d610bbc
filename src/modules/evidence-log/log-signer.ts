import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { JsonLogger } from '../../common/logging/json-logger';
import { DsseSigner, emptyCheckpoint, formatVerifierKey, keyIdHex, signCheckpoint } from '../../../libs/transparency/src';
import { loadSigningKey, LoadedSigningKey } from './log-signing-key';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';
import { SigningKeyRepository } from './persistence/signing-key.repository';

/**
 * Holds the log's signing key and signs checkpoints: every LOG_CHECKPOINT_INTERVAL_MS, each org whose log grew
 * gets one checkpoint of its current size. `signDue()` is the whole of one round (tests call it directly).
 */
@Injectable()
export class LogSigner implements OnApplicationBootstrap, OnApplicationShutdown {
  private key?: LoadedSigningKey;
  private timer?: NodeJS.Timeout;
  private round: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly log: EvidenceLogRepository,
    private readonly keys: SigningKeyRepository,
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
      this.timer = setInterval(() => void this.signDue(), this.config.evidenceLog.checkpointIntervalMs);
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.round;
  }

  origin(orgName: string): string {
    return `${this.config.evidenceLog.origin}/${orgName}`;
  }

  /** Signs a checkpoint for every org whose log grew since its last one. Rounds never overlap. */
  signDue(): Promise<void> {
    this.round = this.round.then(() => this.signRound()).catch((error) => {
      this.logger.warn(`evidence log: checkpoint round failed: ${(error as Error)?.message}`, 'EvidenceLog');
    });
    return this.round;
  }

  private async signRound(): Promise<void> {
    for (const org of await this.log.grown()) {
      const root = await this.log.rangeHash(org.orgId, 0, org.size);
      const note = signCheckpoint({ origin: this.origin(org.orgName), size: org.size, rootHash: root }, [this.signer()]);
      await this.log.saveCheckpoint(org.orgId, { size: org.size, root, note });
    }
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
