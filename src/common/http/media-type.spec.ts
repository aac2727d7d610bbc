import { isValidMediaType, mediaType } from './media-type';

const req = (contentType?: string) => ({ headers: contentType === undefined ? {} : { 'content-type': contentType } });

describe('mediaType', () => {
  it('is the type without parameters, lower case, or empty without a header', () => {
    expect(mediaType(req('Multipart/Form-Data; boundary=abc'))).toBe('multipart/form-data');
    expect(mediaType(req(' application/json '))).toBe('application/json');
    expect(mediaType(req('; charset=utf-8'))).toBe('');
    expect(mediaType(req(''))).toBe('');
    expect(mediaType(req())).toBe('');
  });

  it('answers each header for itself when headers alternate (the remembered one is only a shortcut)', () => {
    const answers = ['text/plain', 'APPLICATION/JSON', 'text/plain', 'text/plain; x=1', 'application/json'].map((h) => mediaType(req(h)));
    expect(answers).toEqual(['text/plain', 'application/json', 'text/plain', 'text/plain', 'application/json']);
  });
});

describe('isValidMediaType', () => {
  it('takes what a Content-Type header may carry: type/subtype and token or quoted parameters', () => {
    for (const ok of ['text/plain', 'application/vnd.api+json', 'text/plain; charset=utf-8', 'text/plain;charset="utf-8"', 'a/b; x="q \\" t"; y=1', 'text/plain;']) {
      expect([ok, isValidMediaType(ok)]).toEqual([ok, true]);
    }
  });

  it('refuses what no response header can carry or what is not a media type', () => {
    for (const bad of ['text/plain; charset=日本', 'text/plain\nX-Evil: 1', 'text/plain\r\nX: 1', 'text', 'text/', '/plain', 'text/plain; charset="open', 'text/pl ain', 'text/plain; =x', 'tëxt/plain', '']) {
      expect([bad, isValidMediaType(bad)]).toEqual([bad, false]);
    }
  });
});
