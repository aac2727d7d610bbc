import 'reflect-metadata';
import { pageLinks } from './page-envelope';

describe('pageLinks', () => {
  const base = 'https://v.example/api/v2/repos/acme';

  it('repeats a list parameter in every link, in order, and leaves out an empty list', () => {
    const links = pageLinks(base, { tag: ['team:web', 'tier'], name: 'a/b', search: undefined, none: [] }, 2, 2, 3);
    for (const link of [links.self, links.first, links.last, links.next!, links.prev!]) {
      const q = new URL(link).searchParams;
      expect(q.getAll('tag')).toEqual(['team:web', 'tier']);
      expect(q.get('name')).toBe('a/b');
      expect(q.has('search')).toBe(false);
      expect(q.has('none')).toBe(false);
    }
    expect(links.next).toBe(`${base}?tag=team%3Aweb&tag=tier&name=a%2Fb&page=3&per_page=2`);
  });
});
