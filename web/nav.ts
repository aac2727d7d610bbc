import { path } from './dom';

/** A URL of the interface from path segments (each encoded). */
export const ui = (...segments: string[]) => '/ui/' + path(...segments);

let renderer: () => Promise<void> = async () => undefined;

export function onNavigate(render: () => Promise<void>): void {
  renderer = render;
}

/** Goes to a URL of the interface without reloading (the URL stays shareable). */
export function navigate(href: string, replace = false): void {
  if (replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  void renderer();
}

/** The current URL with these query parameters changed (empty values removed). */
export function withQuery(changes: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return location.pathname + (s ? `?${s}` : '');
}
