import { get } from '../api';
import { h, link, section, value, show } from '../dom';
import { ui } from '../nav';
import type { Ctx } from './index';
import { queryForm } from './common';

const enc = encodeURIComponent;

export async function searchPage({ params, query, main, setTitle }: Ctx): Promise<void> {
  const org = params.org;
  const q = query.get('q') ?? '';
  setTitle(q ? `Search ${q}` : 'Search');
  let results: HTMLElement | null = null;
  if (q) {
    const r = await get<any>(`/search/${enc(org)}/sha/${enc(q)}`);
    const artifacts: any[] = r.artifacts ?? [];
    results = section(
      'Results',
      artifacts.length
        ? h(
            'ul',
            {},
            artifacts.map((a: any) =>
              h('li', {}, link(ui('o', org, 'artifacts', a.flow ?? a.flow_name ?? '', a.fingerprint), `${a.name ?? a.filename ?? a.fingerprint}`), ` (${a.flow ?? a.flow_name ?? ''})`),
            ),
          )
        : null,
      value(r),
    );
  }
  show(main, h('h1', {}, 'Search by fingerprint or commit'), queryForm('Search', [{ name: 'q', label: 'Fingerprint or commit (at least 5 characters)', value: q }], 'search-form'), results);
}
