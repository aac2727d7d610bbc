import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../common/config/app-config';
import { InjectConfig } from '../../common/config/config.decorators';
import { ConflictError } from '../../common/errors/app-error';
import { toPolicyInputTrail } from './dto/policy-input';
import { TrailStateReader } from './read-model/trail-state.reader';

/**
 * A trail pinned at one of its moments. `trailId` when the caller already resolved it (the ledger's `pinAt`):
 * the trail is then read by id, its names are not resolved again (a stored evaluation re-run has names only).
 */
export interface PinnedTrail {
  flowName: string;
  trailName: string;
  momentNumber: number;
  trailId?: string;
}

/** Trails read in parallel at most this many at a time (each is two statements). */
const CONCURRENCY = 8;

/** Per-process budget for built elements (their JSON size). */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The trails module's answer to "what does a policy see": each pinned trail as an element of `input.trails`
 * (see toPolicyInputTrail). A function of (trail, moment) alone, so the same pins always give the same input.
 * 409 when a trail's template gives two slots one attestation name (no input can be built), 404 when a trail
 * or moment does not exist.
 */
@Injectable()
export class TrailPolicyInput {
  /**
   * Elements already built, by (trail, moment, flow name, base URL). A trail at a moment never changes (see the trail
   * moments' cache), so an element is kept until memory runs short; a policy re-run on the same trails (a
   * release gate asked again, a replay) builds nothing again. Elements are never modified once built.
   */
  private readonly built = new LRUCache<string, Record<string, unknown>>({ maxSize: CACHE_BYTES });

  constructor(
    private readonly reader: TrailStateReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** `publicBaseUrl`: the base of the `html_url`s in it (the service's own by default). */
  async build(orgId: string, orgName: string, pins: PinnedTrail[], publicBaseUrl = this.config.publicBaseUrl): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = new Array(pins.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < pins.length; i = next++) out[i] = await this.one(orgId, orgName, pins[i], publicBaseUrl);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pins.length) }, worker));
    return out;
  }

  private async one(orgId: string, orgName: string, pin: PinnedTrail, publicBaseUrl: string): Promise<Record<string, unknown>> {
    // The flow's name is part of the element and a rename makes no moment: it is part of the key.
    const key = pin.trailId ? `${orgId}:${pin.trailId}:${pin.momentNumber}:${orgName}:${pin.flowName}:${publicBaseUrl}` : null;
    const hit = key ? this.built.get(key) : undefined;
    if (hit) return hit;
    const element = await this.read(orgId, orgName, pin, publicBaseUrl);
    if (key) this.built.set(key, element, { size: Math.max(1, JSON.stringify(element).length) });
    return element;
  }

  private async read(orgId: string, orgName: string, pin: PinnedTrail, publicBaseUrl: string): Promise<Record<string, unknown>> {
    const at = { kind: 'number', number: pin.momentNumber } as const;
    const { trail, moment, state } = pin.trailId
      ? await this.reader.readByIdAt(orgId, pin.trailId, at, true, publicBaseUrl)
      : await this.reader.readAt(orgId, pin.flowName, pin.trailName, at, true, publicBaseUrl);
    if (!moment || !state) throw new Error(`moment ${pin.momentNumber} of trail ${pin.flowName}/${pin.trailName} is missing`);
    if (state.compliance.duplicateKeys.length) {
      throw new ConflictError(
        `Two slots of trail '${pin.trailName}' share the attestation name ${state.compliance.duplicateKeys.map((k) => `'${k}'`).join(', ')}, so no policy input can be built`,
        { [`${pin.flowName}/${pin.trailName}`]: `duplicate slot keys: ${state.compliance.duplicateKeys.join(', ')}` },
      );
    }
    const events = await this.reader.events(trail.id, moment.momentNumber);
    // The flow as the pin names it: its name now for a new evaluation, the name it had for a replay of an old one.
    return toPolicyInputTrail({ ...trail, flow_name: pin.flowName }, moment, state, events, orgName, publicBaseUrl);
  }
}
