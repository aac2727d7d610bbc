import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client, ClientConfig } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { JsonLogger } from '../common/logging/json-logger';

type Handler = (payload: string) => void;
type StateListener = (listening: boolean) => void;

/** How often the listening connection is checked (a half-open TCP connection would otherwise go unnoticed). */
const PING_INTERVAL_MS = 2_000;
const PING_TIMEOUT_MS = 2_000;
const RECONNECT_MAX_MS = 5_000;
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL LISTEN/NOTIFY for the whole process, on one connection of its own (outside the pool). A NOTIFY
 * sent inside a transaction (`notifyIn`, or `pg_notify` in a repository's statement) reaches every listening
 * process when, and only if, that transaction commits: the way one process tells all the others that a cached
 * answer is stale (a revoked API key) or that there is work (new outbox events).
 *
 * Notifications sent while the connection is down are lost, so whoever caches must not trust its cache while
 * `listening` is false, and must drop it when listening resumes (`onStateChange`).
 */
@Injectable()
export class PgNotifications implements OnApplicationBootstrap, OnApplicationShutdown {
  private client: Client | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly stateListeners = new Set<StateListener>();
  private isListening = false;
  private stopped = false;
  private reconnectDelayMs = 100;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {}

  /** True while notifications are being received: nothing sent since the last (re)connection was missed. */
  get listening(): boolean {
    return this.isListening;
  }

  /** Calls `handler` with the payload of every notification on `channel` (from any process, this one too). */
  on(channel: string, handler: Handler): void {
    if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel '${channel}'`);
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      if (this.client && this.isListening) this.client.query(`LISTEN ${channel}`).catch((error) => this.lost(error));
    }
    set.add(handler);
  }

  /** Calls `listener(false)` when the connection is lost and `listener(true)` each time listening (re)starts. */
  onStateChange(listener: StateListener): void {
    this.stateListeners.add(listener);
  }

  /** Sends a notification when the caller's transaction commits. */
  async notifyIn(manager: EntityManager, channel: string, payload: string): Promise<void> {
    await manager.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
  }

  onApplicationBootstrap(): void {
    void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const client = this.client;
    this.client = null;
    this.setListening(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.connectionConfig());
    client.on('error', (error) => this.lost(error, client));
    client.on('end', () => this.lost(new Error('connection ended'), client));
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? '');
        } catch (error) {
          this.logger.warn('notification handler failed', { channel: message.channel, error: (error as Error).message });
        }
      }
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelayMs = 100;
    this.pingTimer = setInterval(() => this.ping(client), PING_INTERVAL_MS);
    this.pingTimer.unref();
    this.setListening(true);
  }

  private ping(client: Client): void {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('listener ping timed out')), PING_TIMEOUT_MS);
    });
    Promise.race([client.query('SELECT 1'), timeout])
      .catch((error) => this.lost(error, client))
      .finally(() => clearTimeout(timer));
  }

  private lost(error: Error, client: Client | null = this.client): void {
    if (!client || client !== this.client) return;
    this.client = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.setListening(false);
    client.end().catch(() => undefined);
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: Error): void {
    if (this.stopped || this.reconnectTimer) return;
    this.logger.warn('database notifications unavailable; reconnecting', { error: error.message, retry_ms: this.reconnectDelayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.reconnectDelayMs);
    this.reconnectTimer.unref();
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
  }

  private setListening(listening: boolean): void {
    if (this.isListening === listening) return;
    this.isListening = listening;
    for (const listener of this.stateListeners) listener(listening);
  }

  /** The pool's own connection settings (URL, TLS ...), with no statement timeout: LISTEN waits forever. */
  private connectionConfig(): ClientConfig {
    const pool = (this.dataSource.driver as unknown as { master: { options: ClientConfig & Record<string, unknown> } }).master;
    const { max, idleTimeoutMillis, statement_timeout, ...options } = pool.options as ClientConfig & Record<string, unknown>;
    void max;
    void idleTimeoutMillis;
    void statement_timeout;
    return { ...options, application_name: 'veritrail-listener', keepAlive: true };
  }
}
