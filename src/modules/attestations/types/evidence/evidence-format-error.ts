import { ValidationError } from '../../../../common/errors/app-error';

/** The evidence is not what its type needs (broken XML, a truncated archive...). */
export class EvidenceFormatError extends Error {}

/** Malformed evidence is the caller's mistake: a 400 keyed `attachment_file`, and nothing is stored. */
export function evidenceError(error: unknown): unknown {
  return error instanceof EvidenceFormatError ? new ValidationError({ attachment_file: error.message }) : error;
}
