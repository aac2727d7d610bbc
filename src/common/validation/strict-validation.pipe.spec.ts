import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { validateDto } from './strict-validation.pipe';

class TrailRef {
  @IsString() @Matches(/^[a-z]+$/) flow: string;
  @IsString() trail: string;
}
class Context {
  @IsArray() @ValidateNested({ each: true }) @Type(() => TrailRef) trails: TrailRef[];
}
class Request {
  @IsObject() @ValidateNested() @Type(() => Context) context: Context;
  @IsOptional() @IsString() note?: string;
}

async function errorsOf(value: unknown, prefix = ''): Promise<Record<string, string>> {
  try {
    await validateDto(Request, value, prefix);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors!;
  }
  throw new Error('expected a validation error');
}

describe('validateDto', () => {
  it('accepts a valid body and returns class instances', async () => {
    const dto = await validateDto(Request, { context: { trails: [{ flow: 'abc', trail: 't1' }] } });
    expect(dto.context.trails[0]).toBeInstanceOf(TrailRef);
  });

  it('reports paths with array indexes, for wrong values and unknown fields at any depth', async () => {
    const errors = await errorsOf({
      context: { trails: [{ flow: 'ok', trail: 't' }, { flow: 'BAD', trail: 1, extra: true }], more: 1 },
      top: 2,
    });
    expect(errors).toEqual({
      'context.trails[1].flow': expect.stringContaining('must match'),
      'context.trails[1].trail': 'must be a string',
      'context.trails[1].extra': expect.stringContaining('unknown field'),
      'context.more': expect.stringContaining('unknown field'),
      top: expect.stringContaining('unknown field'),
    });
  });

  it('says "is required" for missing required fields, and prefixes query paths', async () => {
    expect(await errorsOf({})).toEqual({ context: 'is required' });
    expect(await errorsOf({ note: 5 }, 'query')).toEqual({ 'query.context': 'is required', 'query.note': 'must be a string' });
  });

  it('reports keys class-transformer would drop silently ("constructor", "toString", "__proto__") as unknown fields', async () => {
    const errors = await errorsOf(JSON.parse('{"constructor": 1, "context": {"toString": "x", "trails": [{"flow": "a", "trail": "t", "__proto__": {"x": 1}}]}}'));
    expect(errors).toEqual({
      constructor: expect.stringContaining('unknown field'),
      'context.toString': expect.stringContaining('unknown field'),
      'context.trails[0].__proto__': expect.stringContaining('unknown field'),
    });
  });

  it('treats null as an empty object and rejects arrays and scalars', async () => {
    expect(await errorsOf(null)).toEqual({ context: 'is required' });
    expect(await errorsOf([1])).toEqual({ body: 'must be a JSON object' });
    expect(await errorsOf('x')).toEqual({ body: 'must be a JSON object' });
  });
});
