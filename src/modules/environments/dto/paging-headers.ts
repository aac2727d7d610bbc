/**
 * The reference's paging headers of the event log: `X-Total-Count`, `X-Per-Page`, `X-Current-Page`,
 * `X-Total-Pages`, and `Link` (first, prev, next, last) when there is more than one page. `url` is the request's
 * path and query; the links keep its other parameters.
 */
export function pagingHeaders(url: string, page: { page: number; perPage: number; total: number }): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(page.total / page.perPage));
  const headers: Record<string, string> = {
    'X-Total-Count': String(page.total),
    'X-Per-Page': String(page.perPage),
    'X-Current-Page': String(page.page),
    'X-Total-Pages': String(totalPages),
  };
  if (totalPages > 1) {
    const [path, query = ''] = url.split('?');
    const link = (n: number) => {
      const q = new URLSearchParams(query);
      q.set('page', String(n));
      q.set('per_page', String(page.perPage));
      return `<${path}?${q.toString()}>`;
    };
    const links = [`${link(1)}; rel="first"`];
    if (page.page > 1) links.push(`${link(Math.min(page.page - 1, totalPages))}; rel="prev"`);
    if (page.page < totalPages) links.push(`${link(page.page + 1)}; rel="next"`);
    links.push(`${link(totalPages)}; rel="last"`);
    headers.Link = links.join(', ');
  }
  return headers;
}
