import { mediaType } from './media-type';

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
