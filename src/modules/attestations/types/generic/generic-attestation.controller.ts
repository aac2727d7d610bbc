import { attestationRoute } from '../attestation-route';
import { GenericAttestationRequestDto } from './generic-attestation.request.dto';

/** Spec op 7: multipart `data_json` + at most one attachment (`attachment_file` or `attachment_file.0`). */
export class GenericAttestationController extends attestationRoute('generic', GenericAttestationRequestDto) {}
