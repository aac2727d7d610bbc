// Building the page: every piece of data becomes a text node (never HTML), so names, annotations, templates and
// policy YAML show as typed, whatever markup they hold. No innerHTML anywhere in web/.

export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** A link inside the interface (handled by the router, so the URL is shareable). */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-link': true }, ...children);
}

/** Path segments are always encoded: a name can hold '/', '?' or '#'. */
export function path(...segments: string[]): string {
  return segments.map((s) => encodeURIComponent(s)).join('/');
}

export function table(headers: string[], rows: Child[][], caption?: string): HTMLElement {
  if (!rows.length) return h('p', { class: 'empty' }, 'Nothing here.');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c))))),
    ),
  );
}

/** A value of any shape, as the API has it: objects as definition lists, arrays as lists, scalars as text. */
export function value(v: unknown, depth = 0): Child {
  if (v === null || v === undefined) return h('span', { class: 'muted' }, '—');
  if (typeof v !== 'object') return String(v);
  if (depth > 6) return JSON.stringify(v);
  if (Array.isArray(v)) return v.length ? h('ul', { class: 'plain' }, v.map((x) => h('li', {}, value(x, depth + 1)))) : h('span', { class: 'muted' }, '(none)');
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return h('span', { class: 'muted' }, '(empty)');
  return h('dl', { class: 'kv' }, entries.map(([k, x]) => [h('dt', {}, k), h('dd', {}, value(x, depth + 1))]));
}

export function badge(compliant: boolean | null | undefined, labels = ['compliant', 'non-compliant']): HTMLElement {
  if (compliant === null || compliant === undefined) return h('span', { class: 'badge unknown' }, 'unknown');
  return h('span', { class: compliant ? 'badge ok' : 'badge bad' }, compliant ? labels[0] : labels[1]);
}

/** Unix seconds (the API's timestamps) or an RFC 3339 string, as a UTC time. */
export function time(v: unknown): string {
  if (typeof v === 'number') return new Date(v * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  if (typeof v === 'string') return v;
  return '—';
}

export function section(title: string, ...children: Child[]): HTMLElement {
  const id = 'h-' + title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/** Replaces an element's content with these children. */
export function show(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}
