import { ValidationOptions } from 'class-validator';
import { IsKeyedMap } from '../../../common/validation/keyed-map';

const DIGEST = /^[a-f0-9]{64}$/;

/**
 * Digests seen valid lately. A large report repeats the same few digests many times (5,000 pods running 1,000
 * images), and a lookup is cheaper than the pattern; bounded, emptied when full.
 */
const KNOWN_DIGESTS = new Set<string>();
const KNOWN_DIGESTS_MAX = 100_000;

function isDigest(value: string): boolean {
  if (KNOWN_DIGESTS.has(value)) return true;
  if (!DIGEST.test(value)) return false;
  if (KNOWN_DIGESTS.size >= KNOWN_DIGESTS_MAX) KNOWN_DIGESTS.clear();
  KNOWN_DIGESTS.add(value);
  return true;
}

function digestProblems(allowUnknown: boolean) {
  return (value: unknown): Record<string, string> | null => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { '': 'must be an object mapping an artifact name to its digest' };
    const digests = value as Record<string, unknown>;
    let out: Record<string, string> | null = null;
    for (const name of Object.keys(digests)) {
      const digest = digests[name];
      if (name !== '' && typeof digest === 'string' && (isDigest(digest) || (allowUnknown && digest === ''))) continue;
      out ??= {};
      if (name === '') out[name] = 'an artifact name must not be empty';
      else if (typeof digest !== 'string') out[name] = 'must be a string';
      else out[name] = allowUnknown ? 'must be 64 lowercase hex characters, or "" when the digest is unknown' : 'must be 64 lowercase hex characters';
    }
    return out;
  };
}

const DIGESTS = digestProblems(false);
const DIGESTS_OR_UNKNOWN = digestProblems(true);

/**
 * `digests`: artifact name (any non-empty string: an image, `<bucket>/<object>`, a function, a path) -> sha256
 * digest, 64 lowercase hex. Errors are keyed by the artifact name: `artifacts[2].digests.web`.
 */
export const IsDigestMap = (options?: ValidationOptions) => IsKeyedMap('isDigestMap', DIGESTS, options);

/** The same, where an unknown digest is `""` (ECS containers whose image digest AWS does not know). */
export const IsDigestMapOrUnknown = (options?: ValidationOptions) => IsKeyedMap('isDigestMapOrUnknown', DIGESTS_OR_UNKNOWN, options);
