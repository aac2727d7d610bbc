import { isStorableText, MAX_DOCUMENT_DEPTH, TOO_DEEP, unstorableText, UNSTORABLE_TEXT } from './storable-text';

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

  it('refuses a document nested deeper than the limit, once, where the limit is crossed, without overflowing', () => {
    const nest = (depth: number, inner: unknown = 1) => {
      let value: unknown = inner;
      for (let i = 0; i < depth; i++) value = [value];
      return value;
    };
    expect(unstorableText({ a: nest(MAX_DOCUMENT_DEPTH - 1) })).toEqual({});
    expect(unstorableText({ a: nest(MAX_DOCUMENT_DEPTH) })).toEqual({ ['a' + '[0]'.repeat(MAX_DOCUMENT_DEPTH - 1)]: TOO_DEEP });
    expect(Object.values(unstorableText({ a: nest(200_000), b: nest(200_000) }))).toEqual([TOO_DEEP]);
  });
});
