import { Injectable } from '@nestjs/common';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { promises as dns } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { addressProblem, literalAddress, urlProblem } from '../domain/address-policy';

/** Refused before a connection was made (the reason names the address). */
export class TargetRefusedError extends Error {}

const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * SSRF guard of notification targets, at save time (`problem`) and at send time (`lookup`, which checks the
 * addresses the connection is really made to, so a name that resolves differently later, DNS rebinding
 * included, is still refused). Only http(s); no private, loopback, link-local or reserved address, for any of
 * the name's addresses, unless the operator allows private targets (ACTIONS_ALLOW_PRIVATE_TARGETS).
 */
@Injectable()
export class TargetGuard {
  constructor(@InjectConfig() private readonly config: AppConfig) {}

  get allowsPrivate(): boolean {
    return this.config.actions.allowPrivateTargets;
  }

  /** Why this URL may not be a target, or null; resolves its host name. */
  async problem(raw: string): Promise<string | null> {
    const bad = urlProblem(raw);
    if (bad || this.allowsPrivate) return bad;
    const url = new URL(raw);
    const literal = literalAddress(url);
    if (literal) return addressProblem(literal);
    let addresses: LookupAddress[];
    try {
      addresses = await withTimeout(dns.lookup(url.hostname, { all: true, verbatim: true }), RESOLVE_TIMEOUT_MS);
    } catch {
      return `${url.hostname} could not be resolved`;
    }
    if (!addresses.length) return `${url.hostname} could not be resolved`;
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) return `${url.hostname} resolves to ${problem}`;
    }
    return null;
  }

  /** Refusal of an IP-literal URL (names are checked by `lookup` as the connection is made), or null. */
  literalProblem(url: URL): string | null {
    if (this.allowsPrivate) return null;
    const literal = literalAddress(url);
    return literal ? addressProblem(literal) : null;
  }

  /** A `lookup` for http.request that refuses a name if any of its addresses may not be a target. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return (callback as (e: Error) => void)(error);
      if (!this.allowsPrivate) {
        for (const { address } of addresses) {
          const problem = addressProblem(address);
          if (problem) return (callback as (e: Error) => void)(new TargetRefusedError(`${hostname} resolves to ${problem}`));
        }
      }
      if (!addresses.length) return (callback as (e: Error) => void)(new Error(`${hostname} could not be resolved`));
      if ((options as { all?: boolean }).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      (callback as (e: null, a: string, f: number) => void)(null, addresses[0].address, addresses[0].family);
    });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]);
}
