import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CSRF_COOKIE, readCookie } from '../../common/auth/session-cookie';
import { CspReports } from './csp-reports';
import { SessionCookies } from './session-cookies';

export const UI_PATH = '/ui';
export const CSP_REPORT_PATH = `${UI_PATH}/csp-report`;

/**
 * The page's policy: its own script and style files only (no inline script or style, no eval), data only from
 * this origin, no frames, no plugins; violations are reported to CSP_REPORT_PATH.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  `report-uri ${CSP_REPORT_PATH}`,
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Manifest {
  js: string;
  css: string;
}

/** The project root: the nearest folder above this file with a package.json (the same from src/ and dist/src/). */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

/**
 * Serves the web interface: one HTML document for every /ui path (the page's script routes by the URL, so every
 * link is shareable) and the built, content-hashed script and style files (`npm run build` writes them to
 * dist/ui, with a manifest naming them), cached for a year since a new build gets new names. Mounted on the
 * Express app directly, beside the API rather than in it: these are files, not API routes, and the page reads
 * everything it shows from the public API with the session cookie.
 */
@Injectable()
export class UiAssets implements OnModuleInit {
  private readonly dir = path.join(projectRoot(), 'dist', 'ui');
  private manifest: Manifest | null = null;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly reports: CspReports,
    private readonly cookies: SessionCookies,
  ) {}

  onModuleInit(): void {
    const app = this.adapterHost.httpAdapter?.getInstance?.();
    if (!app?.use) return;
    app.use(UI_PATH, (req: Request, res: Response, next: NextFunction) => this.serve(req, res, next));
  }

  private serve(req: Request, res: Response, next: NextFunction): void {
    res.setHeader('Content-Security-Policy', UI_CSP);
    if (req.method === 'POST' && req.path === '/csp-report') {
      this.reports.record(req.body);
      res.status(204).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/assets/')) return this.asset(req, res, next);
    const manifest = this.readManifest();
    if (!manifest) {
      res.status(503).type('text/plain; charset=utf-8').send('The web interface is not built: run npm run build\n');
      return;
    }
    this.cookies.ensureCsrf(req, res, readCookie(req.headers.cookie, CSRF_COOKIE) !== undefined);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html; charset=utf-8').send(page(manifest));
  }

  private asset(req: Request, res: Response, next: NextFunction): void {
    const name = path.posix.basename(req.path);
    const type = TYPES[path.extname(name)];
    const file = path.join(this.dir, 'assets', name);
    if (!type || name !== req.path.slice('/assets/'.length) || !fs.existsSync(file)) return next();
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(type).sendFile(file);
  }

  private readManifest(): Manifest | null {
    if (this.manifest) return this.manifest;
    try {
      this.manifest = JSON.parse(fs.readFileSync(path.join(this.dir, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      return null;
    }
    return this.manifest;
  }
}

function page(manifest: Manifest): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Veritrail</title>
<link rel="stylesheet" href="${UI_PATH}/${manifest.css}">
<script type="module" src="${UI_PATH}/${manifest.js}"></script>
</head>
<body>
<div id="app"><main id="main"><h1>Veritrail</h1><p>Loading…</p></main></div>
</body>
</html>
`;
}
