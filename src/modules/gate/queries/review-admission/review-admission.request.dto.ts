import { IsIn, IsOptional } from 'class-validator';
import { IsStringOrStrings } from '../../query-fields';

/**
 * The webhook's settings, in its URL (the ValidatingWebhookConfiguration's `clientConfig.url`), so a cluster
 * states how it is gated where the webhook is configured: `mode` and the namespaces it leaves alone.
 */
export class ReviewAdmissionQueryDto {
  @IsOptional()
  @IsIn(['enforce', 'warn', 'off'])
  mode?: 'enforce' | 'warn' | 'off';

  /** Repeatable: `?exempt_namespace=kube-system&exempt_namespace=monitoring`. */
  @IsOptional()
  @IsStringOrStrings()
  exempt_namespace?: string | string[];
}
