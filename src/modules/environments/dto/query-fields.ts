import { registerDecorator, ValidationOptions } from 'class-validator';

/** A repeatable query field: one string, or a list of strings (`?type=K8S&type=ECS`), each at most 256 characters. */
export function IsStringOrStrings(options?: ValidationOptions): PropertyDecorator {
  const ok = (v: unknown) => typeof v === 'string' && v.length <= 256;
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStringOrStrings',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => ok(value) || (Array.isArray(value) && value.length <= 50 && value.every(ok)),
        defaultMessage: () => 'must be a string (at most 256 characters), or repeated up to 50 times',
      },
    });
}

/** A repeatable query field as a list. */
export function listOf(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
