import { attestationRoute } from '../attestation-route';
import { PullRequestAttestationRequestDto } from './pull-request-attestation.request.dto';

/** `kosli attest pullrequest github|gitlab|bitbucket|azure`: one route for every provider (`git_provider` says which). */
export class PullRequestAttestationController extends attestationRoute('pull_request', PullRequestAttestationRequestDto) {}
