import { Injectable, PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../errors/app-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A resource id in a path (a UUID the service minted). Anything else names nothing: 404, as an unknown id does,
 * so a malformed id never reaches the database.
 */
@Injectable()
export class ResourceIdPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new NotFoundError(`${this.resource} '${value}' not found`);
    return value.toLowerCase();
  }
}
