import { Body, Controller, Delete, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import { CurrentPrincipal, NotOrgScoped, Public } from '../../common/auth/auth.decorators';
import { Principal } from '../../common/auth/principal';
import { CSRF_COOKIE, CSRF_HEADER, readCookie, SESSION_COOKIE } from '../../common/auth/session-cookie';
import { ApiErrors, ApiSuccess, message } from '../../common/openapi/response-schema';
import { EndWebSessionCommand } from './commands/end-web-session/end-web-session.command';
import { StartWebSessionCommand } from './commands/start-web-session/start-web-session.command';
import { StartWebSessionRequestDto } from './commands/start-web-session/start-web-session.request.dto';
import { STARTED_WEB_SESSION_SCHEMA, WEB_SESSION_SCHEMA } from './dto/web-session.schema';
import { GetWebSessionQuery } from './queries/get-web-session/get-web-session.query';
import { SessionCookies } from './session-cookies';
import { toJsonString } from '../../common/http/json-string';

/**
 * The web interface's sign-in and sign-out: a personal API key exchanged for a session cookie (HttpOnly,
 * SameSite=Strict, Secure behind TLS), which the API's guards then accept in place of the key.
 */
@Controller('session')
export class SessionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
    private readonly cookies: SessionCookies,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiSuccess(STARTED_WEB_SESSION_SCHEMA)
  @ApiErrors({ 401: 'The API key is invalid, expired or revoked', 403: 'The x-csrf-token header does not repeat the vt_csrf cookie' })
  async signIn(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: StartWebSessionRequestDto) {
    const started = await this.commandBus.execute(
      new StartWebSessionCommand({
        apiKey: body.api_key,
        csrfCookie: readCookie(req.headers.cookie, CSRF_COOKIE),
        csrfHeader: req.get(CSRF_HEADER),
      }),
    );
    this.cookies.set(req, res, started);
    return { ...started.principal, expires_at: started.expiresAt.toISOString() };
  }

  @Get()
  @NotOrgScoped("the caller's own identity: no organization's data")
  @Header('Cache-Control', 'no-store')
  @ApiSuccess(WEB_SESSION_SCHEMA)
  whoAmI(@CurrentPrincipal() principal: Principal) {
    return this.queryBus.execute(new GetWebSessionQuery({ principal }));
  }

  @Delete()
  @NotOrgScoped("ends the caller's own session: no organization's data")
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.commandBus.execute(new EndWebSessionCommand({ token: readCookie(req.headers.cookie, SESSION_COOKIE) }));
    this.cookies.clear(req, res);
    return toJsonString('Signed out');
  }
}
