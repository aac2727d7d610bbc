import { attestationRoute } from '../attestation-route';
import { CustomAttestationRequestDto } from './custom-attestation.request.dto';

/** `kosli attest custom`: multipart `data_json` (with `type_name` and `attestation_data`) + optional attachment. */
export class CustomAttestationController extends attestationRoute('custom', CustomAttestationRequestDto) {}
