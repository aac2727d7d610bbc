import { Command } from '@nestjs/cqrs';

export interface StartedWebSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
  principal: { kind: string; name: string };
}

/** Sign-in: an API key for a session. Not org-scoped (a person's key acts in each of their orgs). */
export class StartWebSessionCommand extends Command<StartedWebSession> {
  constructor(
    readonly props: Readonly<{
      apiKey: string;
      /** The anti-forgery token the sign-in page was given (its cookie) and the one the request repeats (its header). */
      csrfCookie: string | undefined;
      csrfHeader: string | undefined;
    }>,
  ) {
    super();
  }
}
