import { attestationRoute } from '../attestation-route';
import { JunitAttestationRequestDto } from './junit-attestation.request.dto';

/** `kosli attest junit`: multipart `data_json` + the report(s) as `attachment_file`. */
export class JunitAttestationController extends attestationRoute('junit', JunitAttestationRequestDto) {}
