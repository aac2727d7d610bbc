import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The largest page number (a database integer); a page past the end of a list is simply empty. */
export const MAX_PAGE = 2_147_483_647;

/** List paging: `page` 1..2147483647 (default 1), `per_page` 1..100 (default 20); a value out of range is 400. */
export class PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

export const DEFAULT_PER_PAGE = 20;

export interface PageLinks {
  self: string;
  first: string;
  last: string;
  next: string | null;
  prev: string | null;
}

/** The paginated list envelope: `data`, `_links`, `pagination {total, page, per_page, page_count}`. */
export interface PageEnvelope<T> {
  data: T[];
  _links: PageLinks;
  pagination: { total: number; page: number; per_page: number; page_count: number };
}

/**
 * Page links; `last` is page 1 when there is nothing to list, `prev` from a page past the end points inside.
 * A list value is a repeated parameter (`?tag=a&tag=b`), kept in its order.
 */
export function pageLinks(
  url: string,
  params: Record<string, string | number | readonly string[] | undefined>,
  page: number,
  perPage: number,
  pageCount: number,
): PageLinks {
  const link = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) q.append(k, item);
      else q.set(k, String(v));
    }
    q.set('page', String(p));
    q.set('per_page', String(perPage));
    return `${url}?${q.toString()}`;
  };
  const last = Math.max(pageCount, 1);
  return {
    self: link(page),
    first: link(1),
    last: link(last),
    next: page < pageCount ? link(page + 1) : null,
    prev: page > 1 ? link(Math.min(page - 1, last)) : null,
  };
}

/**
 * `url` is the list's absolute URL without paging parameters; `params` the other query parameters to keep.
 * A page past the end is an empty `data` with the links still pointing inside the list.
 */
export function pageEnvelope<T>(
  data: T[],
  total: number,
  page: number,
  perPage: number,
  url: string,
  params: Record<string, string | undefined> = {},
): PageEnvelope<T> {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  return {
    data,
    _links: pageLinks(url, params, page, perPage, pageCount),
    pagination: { total, page, per_page: perPage, page_count: pageCount },
  };
}
