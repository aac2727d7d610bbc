import { AttestationResponse } from './attestation.response';

export interface PageLinks {
  self: string;
  first: string;
  last: string;
  next: string | null;
  prev: string | null;
}

export interface PaginatedAttestations {
  data: AttestationResponse[];
  _links: PageLinks;
  pagination: { total: number; page: number; per_page: number; page_count: number };
}

/** Page links of a newest-first listing; `last` is page 1 when there is nothing to list. */
export function pageLinks(
  baseUrl: string,
  query: Record<string, string | number | undefined>,
  page: number,
  perPage: number,
  pageCount: number,
): PageLinks {
  const url = (p: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    params.set('page', String(p));
    params.set('per_page', String(perPage));
    return `${baseUrl}?${params.toString()}`;
  };
  const last = Math.max(pageCount, 1);
  return {
    self: url(page),
    first: url(1),
    last: url(last),
    next: page < pageCount ? url(page + 1) : null,
    prev: page > 1 ? url(Math.min(page - 1, last)) : null,
  };
}
