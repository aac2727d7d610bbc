import { LaunchDarklyChange } from './launch-darkly-event';

/**
 * What the `launch_darkly` type records. It is written only by the LaunchDarkly webhook (built by the
 * service from a signed payload, never taken from a client's `data_json`), so it needs no validation rules.
 */
export class LaunchDarklyAttestationData {
  attestation_name: string;
  launch_darkly: LaunchDarklyChange;
}
