import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

export interface StringMapRules {
  minEntries?: number;
  maxEntries?: number;
  /** checks one key; returns what is wrong with it, or null */
  key?: (key: string) => string | null;
  maxValueLength?: number;
}

/** What is wrong with `value` as an object mapping strings to strings under `rules`, or null. */
export function stringMapProblem(value: unknown, rules: StringMapRules = {}): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object mapping names to strings';
  const entries = Object.entries(value);
  if (rules.minEntries !== undefined && entries.length < rules.minEntries) return `must have at least ${rules.minEntries} entr${rules.minEntries === 1 ? 'y' : 'ies'}`;
  if (rules.maxEntries !== undefined && entries.length > rules.maxEntries) return `must have at most ${rules.maxEntries} entries`;
  for (const [key, entry] of entries) {
    const keyProblem = rules.key?.(key);
    if (keyProblem) return `key '${key}' ${keyProblem}`;
    if (typeof entry !== 'string') return `'${key}' must be a string`;
    if (rules.maxValueLength !== undefined && entry.length > rules.maxValueLength) return `'${key}' must be at most ${rules.maxValueLength} characters`;
  }
  return null;
}

/** An object whose values are strings (links, inline policy files ...), within the given rules. */
export function IsStringMap(rules: StringMapRules = {}, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => stringMapProblem(value, rules) === null,
        defaultMessage: (args?: ValidationArguments) => stringMapProblem(args?.value, rules) ?? 'is invalid',
      },
    });
}
