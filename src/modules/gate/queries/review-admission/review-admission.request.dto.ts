import { IsIn, IsOptional } from 'class-validator';
import { ValidationError } from '../../../../common/errors/app-error';
import { AdmissionMode } from '../../domain/admission-review';
import { IsStringOrStrings, listOf } from '../../query-fields';

const MODES: readonly AdmissionMode[] = ['enforce', 'warn', 'off'];
const MAX_EXEMPT = 50;

/**
 * The webhook's settings, in its URL (the ValidatingWebhookConfiguration's `clientConfig`), so a cluster states
 * how it is gated where the webhook is configured: `mode` and the namespaces it leaves alone. Kubernetes refuses
 * a webhook URL with a query string (and a `clientConfig.service` path is checked segment by segment), so the
 * settings may be path segments instead: `/admission/{org}/{env}/{mode}` and
 * `/admission/{org}/{env}/{mode}/exempt/{namespace}/{namespace}...`. The query form stays for other callers.
 */
export class ReviewAdmissionQueryDto {
  @IsOptional()
  @IsIn(MODES)
  mode?: AdmissionMode;

  /** Repeatable: `?exempt_namespace=kube-system&exempt_namespace=monitoring`. */
  @IsOptional()
  @IsStringOrStrings()
  exempt_namespace?: string | string[];
}

export interface AdmissionSettings {
  mode: AdmissionMode;
  exemptNamespaces: string[];
}

/**
 * The settings of one call: from the path when it has them, else from the query (validated by its DTO); both
 * at once is refused, since one would silently win over the other.
 */
export function admissionSettings(query: ReviewAdmissionQueryDto, path?: { mode: string; exempt?: string[] }): AdmissionSettings {
  if (!path) return { mode: query.mode ?? 'enforce', exemptNamespaces: listOf(query.exempt_namespace) };
  if (query.mode !== undefined || query.exempt_namespace !== undefined) {
    throw new ValidationError({ query: 'the settings are in the path: leave mode and exempt_namespace out of the query' });
  }
  if (!MODES.includes(path.mode as AdmissionMode)) throw new ValidationError({ 'path.mode': `must be one of ${MODES.join(', ')} (the segment after the environment)` });
  const exempt = path.exempt ?? [];
  if (path.exempt && (!exempt.length || exempt.length > MAX_EXEMPT || exempt.some((ns) => !ns || ns.length > 256))) {
    throw new ValidationError({ 'path.exempt': `list 1 to ${MAX_EXEMPT} namespaces after /exempt/, one per segment` });
  }
  return { mode: path.mode as AdmissionMode, exemptNamespaces: exempt };
}
