import { attestationRoute } from '../attestation-route';
import { SonarAttestationRequestDto } from './sonar-attestation.request.dto';

/** `kosli attest sonar`: multipart `data_json` (the analysis and its quality gate). */
export class SonarAttestationController extends attestationRoute('sonar', SonarAttestationRequestDto) {}
