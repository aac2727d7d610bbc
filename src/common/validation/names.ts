import { createParamDecorator, ExecutionContext, PipeTransform } from '@nestjs/common';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import type { Request } from 'express';
import { ValidationError } from '../errors/app-error';

/**
 * The naming rules of the API, in one place: every DTO field and path parameter that holds one of these names
 * is checked against the rule here, with the same messages. Flow, trail and org names are the spec's
 * identifiers (the flow rule is written as the spec writes it); an attestation name may contain commas; a
 * template reference name (an artifact's name in the template) may not contain dots, so a slot key
 * `<artifact>.<attestation>` stays unambiguous.
 */
export const FLOW_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;
export const TRAIL_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;
export const ORG_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_.~]*$/;
export const ATTESTATION_NAME = /^[a-zA-Z0-9\-_,]+$/;
export const TEMPLATE_REFERENCE_NAME = /^[a-zA-Z0-9\-_]+$/;
/** Environment names: the reference's rule for them, the same as flow names. */
export const ENVIRONMENT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9.\-_~]*$/;

interface NameRule {
  pattern: RegExp;
  /** Longest accepted name, in UTF-16 code units (as class-validator's MaxLength counts). */
  maxLength?: number;
}

export const NAME_RULES = {
  flow: { pattern: FLOW_NAME, maxLength: 256 },
  trail: { pattern: TRAIL_NAME, maxLength: 256 },
  org: { pattern: ORG_NAME, maxLength: 64 },
  attestation: { pattern: ATTESTATION_NAME, maxLength: 256 },
  template_reference: { pattern: TEMPLATE_REFERENCE_NAME, maxLength: 256 },
  environment: { pattern: ENVIRONMENT_NAME, maxLength: 256 },
} as const satisfies Record<string, NameRule>;

export type NameKind = keyof typeof NAME_RULES;

/** What is wrong with `value` as a name of this kind, or null when it is a valid one. */
export function nameProblem(kind: NameKind, value: unknown): string | null {
  const rule: NameRule = NAME_RULES[kind];
  if (typeof value !== 'string') return 'must be a string';
  if (rule.maxLength !== undefined && value.length > rule.maxLength) {
    return `must be shorter than or equal to ${rule.maxLength} characters`;
  }
  if (!rule.pattern.test(value)) return `must match ${rule.pattern.source}`;
  return null;
}

export function isName(kind: NameKind, value: unknown): value is string {
  return nameProblem(kind, value) === null;
}

/**
 * A property that holds a name of this kind: a string, within the kind's length, matching its pattern. With
 * `{ each: true }` every item of an array is one. Use `@IsOptional()` beside it for an optional name.
 */
export function IsName(kind: NameKind, options?: ValidationOptions): PropertyDecorator {
  const each = options?.each === true;
  const message = (value: unknown): string => {
    if (each && Array.isArray(value)) {
      const problem = value.map((item) => nameProblem(kind, item)).find((p) => p !== null);
      return problem ? `each item ${problem}` : 'is invalid';
    }
    return nameProblem(kind, value) ?? 'is invalid';
  };
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: `is${kind.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Name`,
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [kind],
      options,
      validator: {
        validate: (value: unknown) => nameProblem(kind, value) === null,
        defaultMessage: (args?: ValidationArguments) => message(args?.value),
      },
    });
}

export const IsFlowName = (options?: ValidationOptions) => IsName('flow', options);
export const IsTrailName = (options?: ValidationOptions) => IsName('trail', options);
export const IsOrgName = (options?: ValidationOptions) => IsName('org', options);
export const IsAttestationName = (options?: ValidationOptions) => IsName('attestation', options);
export const IsTemplateReferenceName = (options?: ValidationOptions) => IsName('template_reference', options);
export const IsEnvironmentName = (options?: ValidationOptions) => IsName('environment', options);

/** Kinds a path parameter can be checked as; the error key is `path.<kind>_name` whatever the route calls it. */
export type PathNameKind = 'flow' | 'trail';

interface PathName {
  kind: PathNameKind;
  /** The route's parameter (`flow` in `:org/:flow`, `flow_name` in `:org/:flow_name/...`). */
  param: string;
}

/** The name parameters a route handler declared (metadata on the handler function). */
const PATH_NAMES = Symbol('veritrail:path-names');

interface PathNamesInput {
  params: Record<string, unknown>;
  names: PathName[];
  param: string;
}

/**
 * Checks the name parameters of a route: all of them at once, so a request with a bad flow and a bad trail
 * name hears about both (`{"path.flow_name": ..., "path.trail_name": ...}`), then gives the one its parameter
 * asked for. Every name parameter of the route runs it, and each throws the same error.
 */
export class PathNamesPipe implements PipeTransform<PathNamesInput, string> {
  transform({ params, names, param }: PathNamesInput): string {
    const errors: Record<string, string> = {};
    for (const name of names) {
      const problem = nameProblem(name.kind, params[name.param]);
      if (problem) errors[`path.${name.kind}_name`] = problem;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return params[param] as string;
  }
}

const pathNames = createParamDecorator((param: string, ctx: ExecutionContext): PathNamesInput => ({
  params: ctx.switchToHttp().getRequest<Request>().params,
  names: Reflect.getMetadata(PATH_NAMES, ctx.getHandler()) ?? [],
  param,
}));

const pathNamesPipe = new PathNamesPipe();

/**
 * A path parameter that holds a name of this kind, checked before the handler runs (400 keyed
 * `path.<kind>_name`). For routes that may create what they name (reporting an artifact or an attestation
 * creates the flow and trail); a read of a name that cannot exist simply finds nothing.
 */
export function NameParam(kind: PathNameKind, param: string): ParameterDecorator {
  const decorate = pathNames(param, pathNamesPipe);
  return (target: object, key: string | symbol | undefined, index: number) => {
    if (key === undefined) throw new Error('NameParam decorates a route handler parameter');
    const handler = (target as Record<string | symbol, unknown>)[key] as object;
    const declared: PathName[] = Reflect.getOwnMetadata(PATH_NAMES, handler) ?? [];
    Reflect.defineMetadata(PATH_NAMES, [...declared, { kind, param }], handler);
    decorate(target, key, index);
  };
}

export const FlowNameParam = (param = 'flow_name') => NameParam('flow', param);
export const TrailNameParam = (param = 'trail_name') => NameParam('trail', param);
