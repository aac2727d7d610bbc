import { Injectable, PipeTransform } from '@nestjs/common';

/**
 * A wildcard path parameter (`*name`) arrives as its segments; the resource it names is their join
 * (`owner/repo`). A single segment (`owner%2Frepo`) arrives as a string.
 */
@Injectable()
export class JoinedPathPipe implements PipeTransform<string | string[], string> {
  transform(value: string | string[]): string {
    return Array.isArray(value) ? value.join('/') : value;
  }
}
