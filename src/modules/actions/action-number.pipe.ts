import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';

/** `{number}` / `{notification_number}`: a positive integer (400 otherwise, keyed `path.<name>`). */
@Injectable()
export class ActionNumberPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    if (!/^[1-9]\d{0,8}$/.test(value)) throw new ValidationError({ [`path.${metadata.data}`]: 'must be a positive integer' });
    return Number(value);
  }
}
