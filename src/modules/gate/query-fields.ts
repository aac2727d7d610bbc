import { registerDecorator, ValidationOptions } from 'class-validator';

/** A repeatable query field: one string, or a list of strings (`?policy_name=a&policy_name=b`), each at most 256 characters. */
export function IsStringOrStrings(options?: ValidationOptions): PropertyDecorator {
  const ok = (v: unknown) => typeof v === 'string' && v.length >= 1 && v.length <= 256;
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStringOrStrings',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => ok(value) || (Array.isArray(value) && value.length <= 50 && value.every(ok)),
        defaultMessage: () => 'must be a string (1 to 256 characters), or repeated up to 50 times',
      },
    });
}

export const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
