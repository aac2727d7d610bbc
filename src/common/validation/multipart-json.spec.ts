import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import type { Request } from 'express';
import { ValidationError } from '../errors/app-error';
import { jsonPartOf, MultipartJsonPipe, parseJsonPart } from './multipart-json';

class Commit {
  @IsString() sha1: string;
}
class Data {
  @IsString() name: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Commit) commit?: Commit;
}

const pipe = new MultipartJsonPipe(Data);

function errorsOf(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors!;
  }
  throw new Error('expected a validation error');
}

function request(contentType: string, body: unknown): Request {
  return { headers: { 'content-type': contentType }, body } as Request;
}

describe('MultipartJsonPipe', () => {
  it('parses data_json and returns the validated DTO, nested classes included', () => {
    const dto = pipe.transform({ texts: ['{"name": "a", "commit": {"sha1": "abc"}}'] });
    expect(dto).toBeInstanceOf(Data);
    expect(dto.commit).toBeInstanceOf(Commit);
  });

  it('answers like a body, keyed data_json for the part itself', () => {
    expect(errorsOf(() => pipe.transform({ texts: [] }))).toEqual({ data_json: 'is required' });
    expect(errorsOf(() => pipe.transform({ texts: ['{}', '{}'] }))).toEqual({ data_json: 'must be sent once, as a text field' });
    expect(errorsOf(() => pipe.transform({ texts: [{ nested: 'form field' }] }))).toEqual({ data_json: 'must be sent once, as a text field' });
    expect(errorsOf(() => pipe.transform({ texts: ['{not json'] }))).toEqual({ data_json: 'is not valid JSON' });
    for (const text of ['[1]', 'null', '"x"', '1']) expect(errorsOf(() => pipe.transform({ texts: [text] }))).toEqual({ data_json: 'must be a JSON object' });
  });

  it('keys field errors by their path inside the document, unknown nested fields included', () => {
    expect(errorsOf(() => pipe.transform({ texts: ['{"commit": {"sha1": 1, "extra": true}, "other": 1}'] }))).toEqual({
      name: 'is required',
      'commit.sha1': 'must be a string',
      'commit.extra': 'unknown field: it is not part of this request',
      other: 'unknown field: it is not part of this request',
    });
    // Keys class-transformer would drop silently are unknown fields too.
    expect(errorsOf(() => pipe.transform({ texts: ['{"name": "a", "commit": {"sha1": "x", "constructor": 1}}'] }))).toEqual({
      'commit.constructor': 'unknown field: it is not part of this request',
    });
  });

  it('takes a JSON body as the document itself, as the global pipe takes a body', () => {
    expect(pipe.transform({ document: { name: 'a' } })).toBeInstanceOf(Data);
    expect(errorsOf(() => pipe.transform({ document: undefined }))).toEqual({ name: 'is required' });
    expect(errorsOf(() => pipe.transform({ document: [1] }))).toEqual({ body: 'must be a JSON object' });
  });

  it('names another part when asked to', () => {
    expect(errorsOf(() => parseJsonPart(Data, { texts: [] }, 'meta_json'))).toEqual({ meta_json: 'is required' });
  });
});

describe('jsonPartOf', () => {
  it('reads the text field a multipart reader left on req.body, or the JSON body', () => {
    expect(jsonPartOf(request('multipart/form-data; boundary=x', { data_json: '{}' }))).toEqual({ texts: ['{}'] });
    expect(jsonPartOf(request('multipart/form-data; boundary=x', { data_json: ['{}', '{}'] }))).toEqual({ texts: ['{}', '{}'] });
    expect(jsonPartOf(request('Multipart/Form-Data', {}))).toEqual({ texts: [] });
    expect(jsonPartOf(request('multipart/form-data', undefined))).toEqual({ texts: [] });
    expect(jsonPartOf(request('application/json', { name: 'a' }))).toEqual({ document: { name: 'a' } });
  });
});
