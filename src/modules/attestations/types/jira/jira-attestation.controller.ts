import { attestationRoute } from '../attestation-route';
import { JiraAttestationRequestDto } from './jira-attestation.request.dto';

/** `kosli attest jira`: multipart `data_json` (the issues referenced and whether Jira has them). */
export class JiraAttestationController extends attestationRoute('jira', JiraAttestationRequestDto) {}
