import { NotFoundError } from '../../common/errors/app-error';

export class ServiceAccountNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Service account '${name}' not found`);
  }
}
