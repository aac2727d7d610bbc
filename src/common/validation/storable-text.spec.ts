import { isStorableText, unstorableText, UNSTORABLE_TEXT } from './storable-text';

describe('storable text', () => {
  it('takes any well-formed text, including astral characters and other control characters', () => {
    for (const text of ['', 'plain', '名前', '\u{1F4A9}', 'tab\tnewline\n\u0001', '\ufeff', '\uffff']) expect([text, isStorableText(text)]).toEqual([text, true]);
  });

  it('refuses NUL and unpaired surrogates', () => {
    for (const text of ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\udc00\ud800', '\ud83d']) expect([text, isStorableText(text)]).toEqual([text, false]);
  });

  it('names every field, at any depth, and keys that cannot be stored', () => {
    const value = { name: 'ok', data: { note: 'a\u0000', list: ['fine', '\ud800'] }, ['k\u0000']: 1 };
    expect(unstorableText(value, 'query')).toEqual({
      'query.data.note': UNSTORABLE_TEXT,
      'query.data.list[1]': UNSTORABLE_TEXT,
      'query.k\\u0000': UNSTORABLE_TEXT,
    });
    expect(unstorableText('\u0000')).toEqual({ body: UNSTORABLE_TEXT });
    expect(unstorableText({ a: [1, true, null, 'b'] })).toEqual({});
  });

  it('walks a deeply nested document without overflowing the stack', () => {
    let value: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(Object.values(unstorableText(value))).toEqual([UNSTORABLE_TEXT]);
  });
});
