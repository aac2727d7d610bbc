import { ApiError, get, post } from '../api';
import { h, show } from '../dom';

/** Sign-in: organization and a personal API key, exchanged for a session cookie the page's script cannot read. */
export function signInPage(
  main: HTMLElement,
  setTitle: (t: string) => void,
  done: (who: { kind: string; name: string }, org: string) => Promise<void>,
  org?: string,
): void {
  setTitle('Sign in');
  const error = h('p', { role: 'alert', class: 'error', id: 'sign-in-error' });
  const orgInput = h('input', { id: 'org', name: 'org', required: true, autocomplete: 'organization', value: org ?? '' });
  const keyInput = h('input', { id: 'api-key', name: 'api_key', type: 'password', required: true, autocomplete: 'off' });
  const form = h(
    'form',
    { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, 'Sign in to Veritrail'),
    h('p', {}, 'Use a personal API key. It is exchanged for a session and not kept by this page.'),
    h('label', { for: 'org' }, 'Organization'),
    orgInput,
    h('label', { for: 'api-key' }, 'API key'),
    keyInput,
    h('button', { type: 'submit' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const who = await post('/session', { api_key: keyInput.value });
      keyInput.value = '';
      // The key may be valid and still not a member of this org: ask the org, as any page would.
      await get(`/organizations/${encodeURIComponent(orgInput.value)}`);
      await done(who, orgInput.value);
    } catch (e) {
      error.textContent = e instanceof ApiError ? e.message : String(e);
    }
  });
  show(main, form);
  main.setAttribute('data-ready', 'true');
  performance.mark('vt:ready');
}
