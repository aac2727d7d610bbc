import { Module } from '@nestjs/common';
import { SessionVerifier } from '../../common/auth/auth-ports';
import { IdentityModule } from '../identity/identity.module';
import { EndWebSessionHandler } from './commands/end-web-session/end-web-session.handler';
import { StartWebSessionHandler } from './commands/start-web-session/start-web-session.handler';
import { CspReports } from './csp-reports';
import { WebSessionRepository } from './persistence/web-session.repository';
import { GetWebSessionHandler } from './queries/get-web-session/get-web-session.handler';
import { SessionCookies } from './session-cookies';
import { SessionsController } from './sessions.controller';
import { UiAssets } from './ui-assets';
import { WebSessionVerifier } from './web-session.verifier';

/**
 * The web interface: /ui (one page and its built files; see ui-assets.ts) and its sessions (`/session`: an API
 * key exchanged for a cookie). Owns `web_sessions`. Public surface: SessionVerifier (the port the authentication
 * guard uses to accept the session cookie) and CspReports (what the browser reported).
 */
@Module({
  imports: [IdentityModule],
  controllers: [SessionsController],
  providers: [
    WebSessionRepository,
    WebSessionVerifier,
    { provide: SessionVerifier, useExisting: WebSessionVerifier },
    SessionCookies,
    CspReports,
    UiAssets,
    StartWebSessionHandler,
    EndWebSessionHandler,
    GetWebSessionHandler,
  ],
  exports: [SessionVerifier, CspReports],
})
export class WebUiModule {}

export { CspReports } from './csp-reports';
export type { CspViolation } from './csp-reports';
