import { attestationRoute } from '../attestation-route';
import { SnykAttestationRequestDto } from './snyk-attestation.request.dto';

/** `kosli attest snyk`: multipart `data_json` + the SARIF (or Snyk JSON) as `attachment_file`. */
export class SnykAttestationController extends attestationRoute('snyk', SnykAttestationRequestDto) {}
