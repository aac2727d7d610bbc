import { Injectable } from '@nestjs/common';
import { TrailMomentResponse } from '../../dto/trail.response';

/** Per-process budget for cached moments (serialized size). */
const BUDGET_BYTES = 32 * 1024 * 1024;

/**
 * Moments are immutable: once moment N of a trail is visible, every row stamped <= N has committed with or
 * before it (writers of one trail are serialized), the template it was evaluated against is fixed, and
 * evidence is never updated. So the answer for (trail, N) can be kept for good; only memory bounds the cache
 * (least recently used out first). Each replica has its own; nothing needs invalidating.
 */
@Injectable()
export class MomentCache {
  private readonly entries = new Map<string, { value: TrailMomentResponse; bytes: number }>();
  private bytes = 0;

  get(trailId: string, momentNumber: number): TrailMomentResponse | undefined {
    const key = `${trailId}:${momentNumber}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(trailId: string, momentNumber: number, value: TrailMomentResponse, bytes: number): void {
    if (bytes > BUDGET_BYTES / 8) return;
    const key = `${trailId}:${momentNumber}`;
    const old = this.entries.get(key);
    if (old) this.bytes -= old.bytes;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= BUDGET_BYTES) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }
}
