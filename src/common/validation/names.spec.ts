import 'reflect-metadata';
import { IsArray, IsOptional } from 'class-validator';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ValidationError } from '../errors/app-error';
import { FLOW_NAME, FlowNameParam, IsAttestationName, IsFlowName, IsOrgName, isName, nameProblem, NAME_RULES, PathNamesPipe, TRAIL_NAME, TrailNameParam } from './names';
import { validateDto } from './strict-validation.pipe';

class Body {
  @IsFlowName() flow: string;
  @IsOptional() @IsOrgName() org?: string;
  @IsOptional() @IsArray() @IsAttestationName({ each: true }) names?: string[];
}

function errorsOf(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors!;
  }
  throw new Error('expected a validation error');
}

describe('names', () => {
  it('states the rules of the spec', () => {
    expect(FLOW_NAME.source).toBe('^[a-zA-Z0-9][a-zA-Z0-9.\\-_~]*$');
    expect(TRAIL_NAME.source).toBe('^[a-zA-Z0-9][a-zA-Z0-9\\-_.~]*$');
    for (const good of ['a', 'Build-1.2_x~y', '0']) {
      expect(isName('flow', good)).toBe(true);
      expect(isName('trail', good)).toBe(true);
      expect(isName('org', good)).toBe(true);
    }
    for (const bad of ['', '-a', '.a', '_a', '~a', 'a b', 'a/b', 'a,b', 'é']) {
      expect({ bad, flow: isName('flow', bad), trail: isName('trail', bad) }).toEqual({ bad, flow: false, trail: false });
    }
    expect(isName('attestation', '-unit,test_1')).toBe(true);
    expect(isName('attestation', 'a.b')).toBe(false);
    expect(isName('template_reference', '-web_1')).toBe(true);
    expect(isName('template_reference', 'web.1')).toBe(false);
  });

  it('says what is wrong: type, length, then pattern', () => {
    expect(nameProblem('flow', 5)).toBe('must be a string');
    expect(nameProblem('flow', 'a'.repeat(NAME_RULES.flow.maxLength))).toBeNull();
    expect(nameProblem('flow', 'a'.repeat(NAME_RULES.flow.maxLength + 1))).toBe('must be shorter than or equal to 256 characters');
    expect(nameProblem('org', 'a'.repeat(65))).toBe('must be shorter than or equal to 64 characters');
    expect(nameProblem('trail', '.x')).toBe(`must match ${TRAIL_NAME.source}`);
    expect(nameProblem('attestation', 'a'.repeat(256))).toBeNull();
    expect(nameProblem('attestation', 'a'.repeat(257))).toBe('must be shorter than or equal to 256 characters');
  });

  it('gives DTOs decorators with the same messages, for single values and each item of an array', () => {
    expect(validateDto(Body, { flow: 'f', org: 'o', names: ['a', 'b,c'] })).toBeInstanceOf(Body);
    expect(errorsOf(() => validateDto(Body, {}))).toEqual({ flow: 'is required' });
    expect(errorsOf(() => validateDto(Body, { flow: '-f', org: 'a b', names: ['ok', 'not ok'] }))).toEqual({
      flow: `must match ${FLOW_NAME.source}`,
      org: `must match ${NAME_RULES.org.pattern.source}`,
      names: 'each item must match ^[a-zA-Z0-9\\-_,]+$',
    });
    expect(errorsOf(() => validateDto(Body, { flow: 1, names: ['a', 2] }))).toEqual({ flow: 'must be a string', names: 'each item must be a string' });
  });
});

describe('name path parameters', () => {
  class Controller {
    attest(@FlowNameParam() _flow: string, @TrailNameParam() _trail: string) {}
    report(@FlowNameParam('flow') _flow: string) {}
  }

  /** What Nest would hand the pipe of parameter `index` of `method`, for these path parameters. */
  function input(method: 'attest' | 'report', index: number, params: Record<string, string>) {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Controller, method) as Record<string, { index: number; data: unknown; factory: Function }>;
    const arg = Object.values(args).find((a) => a.index === index)!;
    const handler = Controller.prototype[method];
    const ctx = { switchToHttp: () => ({ getRequest: () => ({ params }) }), getHandler: () => handler };
    return arg.factory(arg.data, ctx);
  }

  const pipe = new PathNamesPipe();

  it('hands the parameter over when every name of the route is valid', () => {
    const params = { flow_name: 'app', trail_name: 'build-1' };
    expect(pipe.transform(input('attest', 0, params))).toBe('app');
    expect(pipe.transform(input('attest', 1, params))).toBe('build-1');
    expect(pipe.transform(input('report', 0, { flow: 'app' }))).toBe('app');
  });

  it('reports every bad name of the route at once, keyed path.<kind>_name whatever the route calls it', () => {
    const params = { flow_name: '-bad', trail_name: '.bad' };
    const expected = { 'path.flow_name': `must match ${FLOW_NAME.source}`, 'path.trail_name': `must match ${TRAIL_NAME.source}` };
    expect(errorsOf(() => pipe.transform(input('attest', 0, params)))).toEqual(expected);
    expect(errorsOf(() => pipe.transform(input('attest', 1, params)))).toEqual(expected);
    expect(errorsOf(() => pipe.transform(input('attest', 0, { flow_name: 'ok', trail_name: 'a b' })))).toEqual({
      'path.trail_name': `must match ${TRAIL_NAME.source}`,
    });
    expect(errorsOf(() => pipe.transform(input('report', 0, { flow: '-x' })))).toEqual({ 'path.flow_name': `must match ${FLOW_NAME.source}` });
  });
});
