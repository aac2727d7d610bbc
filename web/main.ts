// The web interface: one page, routed by the URL under /ui, reading everything from the public API with the
// session cookie. See docs/choices.md for why a small plain-TypeScript page rather than a framework.
import { ApiError, del, get } from './api';
import { h, link, show } from './dom';
import { navigate, onNavigate, ui } from './nav';
import { routes } from './pages';
import { signInPage } from './pages/sign-in';

import type { Ctx } from './pages';
export type { Ctx };

let who: { kind: string; name: string } | null = null;


function orgOf(pathname: string): string | undefined {
  const m = /^\/ui\/o\/([^/]+)/.exec(pathname);
  return m ? decodeURIComponent(m[1]) : undefined;
}

function header(org: string | undefined): HTMLElement {
  const nav = org
    ? h(
        'nav',
        { 'aria-label': 'Main' },
        h(
          'ul',
          {},
          [
            ['Overview', ui('o', org)],
            ['Flows', ui('o', org, 'flows')],
            ['Trails', ui('o', org, 'trails')],
            ['Artifacts', ui('o', org, 'artifacts')],
            ['Environments', ui('o', org, 'environments')],
            ['Controls', ui('o', org, 'controls')],
            ['Evaluations', ui('o', org, 'evaluations')],
            ['Evidence log', ui('o', org, 'log')],
            ['Search', ui('o', org, 'search')],
          ].map(([label, href]) => h('li', {}, link(href, label))),
        ),
      )
    : null;
  return h(
    'header',
    { class: 'top' },
    h('a', { class: 'brand', href: org ? ui('o', org) : '/ui/', 'data-link': true }, 'Veritrail'),
    org ? h('span', { class: 'org', 'aria-label': 'Organization' }, org) : null,
    nav,
    who
      ? h(
          'div',
          { class: 'who' },
          h('span', { 'data-testid': 'signed-in-as' }, who.name),
          h('button', { type: 'button', id: 'sign-out', onclick: () => void signOut() }, 'Sign out'),
        )
      : null,
  );
}

async function signOut(): Promise<void> {
  try {
    await del('/session');
  } finally {
    who = null;
    navigate('/ui/', true);
  }
}

async function render(): Promise<void> {
  const app = document.getElementById('app')!;
  const pathname = location.pathname.replace(/\/+$/, '') || '/ui';
  const main = h('main', { id: 'main', tabindex: '-1' });
  const org = orgOf(pathname);
  const setTitle = (title: string) => (document.title = `${title} · Veritrail`);
  if (!who && pathname !== '/ui') {
    try {
      who = await get('/session');
    } catch {
      who = null;
    }
  }
  if (!who || pathname === '/ui') {
    app.replaceChildren(header(undefined), main);
    signInPage(main, setTitle, async (session, orgName) => {
      who = session;
      navigate(ui('o', orgName));
    }, org);
    return;
  }
  app.replaceChildren(h('a', { href: '#main', class: 'skip' }, 'Skip to content'), header(org), main);
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])));
    main.setAttribute('aria-busy', 'true');
    try {
      await route.render({ params, query: new URLSearchParams(location.search), main, setTitle });
    } catch (error) {
      show(main, 
        h('h1', {}, 'Could not load this page'),
        h('p', { role: 'alert', class: 'error' }, error instanceof ApiError ? `${error.status}: ${error.message}` : String(error)),
      );
    } finally {
      main.removeAttribute('aria-busy');
      main.setAttribute('data-ready', 'true');
      // When the page's content is on screen and its controls work (read by bench/ui).
      performance.mark('vt:ready');
    }
    return;
  }
  show(main, h('h1', {}, 'Not found'), h('p', {}, 'No page here.'));
  main.setAttribute('data-ready', 'true');
}

document.addEventListener('click', (event) => {
  const a = (event.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  navigate(a.getAttribute('href')!);
});
onNavigate(render);
window.addEventListener('popstate', () => void render());
window.addEventListener('vt:signed-out', () => {
  who = null;
});
void render();
