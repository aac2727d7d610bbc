import { h } from '../dom';
import { navigate, withQuery } from '../nav';

export interface Page<T> {
  data: T[];
  pagination?: { total: number; page: number; per_page: number; page_count: number };
}

/** Previous/next links for a paginated list; the page number is in the URL. */
export function pager(page: Page<unknown>, current: number): HTMLElement | null {
  const p = page.pagination;
  if (!p) return null;
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    current > 1 ? h('a', { href: withQuery({ page: current - 1 }), 'data-link': true, rel: 'prev' }, '← Previous') : null,
    h('span', {}, `Page ${p.page} of ${Math.max(p.page_count, 1)} (${p.total} in all)`),
    current < p.page_count ? h('a', { href: withQuery({ page: current + 1 }), 'data-link': true, rel: 'next' }, 'Next →') : null,
  );
}

export function pageNumber(query: URLSearchParams): number {
  const n = Number(query.get('page') ?? '1');
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
