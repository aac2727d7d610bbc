import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { acceptIfValid, shieldFreeForm, uncopiedKeys } from './compiled-validation';
import { flattenValidationErrors, joinPath, UNKNOWN_FIELD } from './flatten-validation-errors';
import { unstorableText } from './storable-text';

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
};

const PREFIX: Record<string, string> = { body: '', query: 'query', param: 'path', custom: '' };
const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/**
 * Validates any plain value against a DTO class, with the same rules and error shape as the pipe. Synchronous:
 * no validator of this project is asynchronous, and class-validator's async path costs a promise per check.
 * Valid input usually takes the compiled fast path (compiled-validation.ts); anything else, and every error
 * message, comes from class-transformer + class-validator.
 */
export function validateDto<T extends object>(cls: new () => T, value: unknown, prefix = ''): T {
  if (value === undefined || value === null) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError({ [prefix || 'body']: 'must be a JSON object' });
  }
  assertStorable(value, prefix);
  return acceptIfValid(cls, value) ?? validateFully(cls, value as Record<string, unknown>, prefix);
}

/** Text PostgreSQL cannot store (NUL, unpaired surrogates) is a 400 naming each field that holds it. */
export function assertStorable(value: unknown, prefix = ''): void {
  const errors = unstorableText(value, prefix);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/**
 * class-transformer + class-validator, with free-form values kept exactly as sent (see shieldFreeForm) and the
 * keys class-transformer does not copy reported as unknown fields (see uncopiedKeys).
 */
export function validateFully<T extends object>(cls: new () => T, value: Record<string, unknown>, prefix = ''): T {
  const { shell, restore } = shieldFreeForm(cls, value);
  const instance = plainToInstance(cls, shell, { enableImplicitConversion: false }) as T;
  restore(instance);
  const errors = validateSync(instance, OPTIONS);
  const uncopied = uncopiedKeys(cls, value, instance);
  if (errors.length || uncopied.length) {
    const fields = flattenValidationErrors(errors, prefix);
    for (const path of uncopied) fields[joinPath(prefix, path)] = UNKNOWN_FIELD;
    throw new ValidationError(fields);
  }
  return instance;
}

/**
 * The one validation pipe (APP_PIPE): rejects unknown fields at every nesting level and reports field paths.
 * A route without a body DTO accepts an empty body or JSON null.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const cls = metadata.metatype;
    const validated = cls && !PRIMITIVES.has(cls) && metadata.type !== 'custom' && !(metadata.type === 'param' && metadata.data);
    if (!validated) {
      // A single query field or an untyped body is not checked against a DTO, but still never reaches the
      // database with text it cannot store (path parameters: see rejectUnstorablePaths).
      if (metadata.type === 'query' || metadata.type === 'body') {
        assertStorable(value, metadata.data ? joinPath(PREFIX[metadata.type], metadata.data) : PREFIX[metadata.type]);
      }
      return value;
    }
    return validateDto(cls! as new () => object, value, PREFIX[metadata.type] ?? '');
  }
}
