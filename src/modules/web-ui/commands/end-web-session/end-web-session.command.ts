import { Command } from '@nestjs/cqrs';

/** Sign-out: the session named by the cookie ends (a request without one ends nothing). */
export class EndWebSessionCommand extends Command<void> {
  constructor(readonly props: Readonly<{ token: string | undefined }>) {
    super();
  }
}
