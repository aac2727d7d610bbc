import { h } from '../dom';
import { navigate, withQuery } from '../nav';

export interface Page<T> {
  data: T[];
  pagination?: { total: number; page: number; per_page: number; page_count: number };
}

/** Previous/next links for a paginated list; the page number is in the URL. */
export function pager(page: Page<unknown>, current: number, param = 'page', label = 'Pages'): HTMLElement | null {
  const p = page.pagination;
  if (!p) return null;
  return pagerNav(current, current < p.page_count, `Page ${p.page} of ${Math.max(p.page_count, 1)} (${p.total} in all)`, param, label);
}

/**
 * Previous and next links for a list the API answers as a plain array (no total): a page as long as asked may have
 * a next one.
 */
export function stepPager(current: number, shown: number, perPage: number, param = 'page', label = 'Pages'): HTMLElement | null {
  const more = shown >= perPage;
  if (current <= 1 && !more) return null;
  return pagerNav(current, more, `Page ${current}`, param, label);
}

function pagerNav(current: number, hasNext: boolean, text: string, param: string, label: string): HTMLElement {
  return h(
    'nav',
    { class: 'pager', 'aria-label': label },
    current > 1 ? h('a', { href: withQuery({ [param]: current - 1 }), 'data-link': true, rel: 'prev' }, '← Previous') : null,
    h('span', {}, text),
    hasNext ? h('a', { href: withQuery({ [param]: current + 1 }), 'data-link': true, rel: 'next' }, 'Next →') : null,
  );
}

export function pageNumber(query: URLSearchParams, param = 'page'): number {
  const n = Number(query.get(param) ?? '1');
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** A small GET form whose fields become the URL's query string (so a filtered view is a shareable link). */
export function queryForm(label: string, fields: Array<{ name: string; label: string; value?: string; placeholder?: string }>, id: string): HTMLElement {
  const inputs = fields.map((f) => h('input', { id: `${id}-${f.name}`, name: f.name, value: f.value ?? '', placeholder: f.placeholder ?? '' }));
  const form = h(
    'form',
    { class: 'row', role: 'search', 'aria-label': label, id },
    fields.map((f, i) => h('div', {}, h('label', { for: `${id}-${f.name}` }, f.label), inputs[i])),
    h('button', { type: 'submit' }, label),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const changes: Record<string, string> = { page: '' };
    fields.forEach((f, i) => (changes[f.name] = inputs[i].value));
    navigate(withQuery(changes));
  });
  return form;
}

/** A time typed in a filter (ISO 8601, or Unix seconds) as Unix seconds; null when empty, NaN when it does not parse. */
export function unixSeconds(text: string | null): number | null {
  const v = (text ?? '').trim();
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  return Date.parse(v) / 1000;
}

/** A same-origin download of an API file (the session cookie authenticates it): a plain link, no script. */
export function download(href: string, label: string, testId: string): HTMLElement {
  return h('a', { href, download: '', 'data-testid': testId }, label);
}
