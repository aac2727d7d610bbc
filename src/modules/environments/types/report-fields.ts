import { ValidationOptions } from 'class-validator';
import { IsKeyedMap } from '../../../common/validation/keyed-map';

const DIGEST = /^[a-f0-9]{64}$/;

function digestProblems(allowUnknown: boolean) {
  return (value: unknown): Record<string, string> | null => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { '': 'must be an object mapping an artifact name to its digest' };
    const out: Record<string, string> = {};
    for (const [name, digest] of Object.entries(value)) {
      if (name === '') out[name] = 'an artifact name must not be empty';
      else if (typeof digest !== 'string') out[name] = 'must be a string';
      else if (!DIGEST.test(digest) && !(allowUnknown && digest === '')) {
        out[name] = allowUnknown ? 'must be 64 lowercase hex characters, or "" when the digest is unknown' : 'must be 64 lowercase hex characters';
      }
    }
    return Object.keys(out).length ? out : null;
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
