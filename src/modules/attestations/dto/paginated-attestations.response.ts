import { PageEnvelope } from '../../../common/pagination/page-envelope';
import { AttestationResponse } from './attestation.response';

export type PaginatedAttestations = PageEnvelope<AttestationResponse>;
