import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import * as path from 'node:path';
import { Public } from '../auth/auth.decorators';
import { OpenApiSource } from './openapi-source';

export const DOCUMENT_PATH = 'openapi.json';
export const PAGE_PATH = 'doc';
/** The swagger-ui files the page loads, from the swagger-ui-dist package that @nestjs/swagger uses (no CDN). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
/** Starts swagger-ui on the document; a file rather than an inline script, so a strict CSP allows it. */
const START_SCRIPT = 'start.js';

const assetsDir = (): string => (require('swagger-ui-dist/absolute-path.js') as () => string)();

function page(base: string, documentUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Veritrail API</title>
  <link rel="stylesheet" href="${base}swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui" data-url="${documentUrl}"></div>
  <script src="${base}swagger-ui-bundle.js"></script>
  <script src="${base}${START_SCRIPT}"></script>
</body>
</html>
`;
}

const START = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  // validatorUrl null: swagger-ui would otherwise ask an outside validator service for a badge.
  window.ui = SwaggerUIBundle({ url: root.dataset.url, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
});
`;

/**
 * The API description (`/api/v2/openapi.json`) and a page to browse it (`/api/v2/doc`). Public: the document
 * describes routes, never data. Its own routes are left out of the document.
 */
@Controller()
@Public()
@ApiExcludeController()
export class OpenApiController {
  constructor(private readonly source: OpenApiSource) {}

  @Get(DOCUMENT_PATH)
  @Header('Cache-Control', 'no-cache')
  document() {
    return this.source.get();
  }

  @Get(PAGE_PATH)
  @Header('Content-Type', 'text/html; charset=utf-8')
  browse(@Req() req: Request) {
    const self = req.originalUrl.split('?')[0].replace(/\/+$/, '');
    return page(`${self}/`, self.replace(new RegExp(`/${PAGE_PATH}$`), `/${DOCUMENT_PATH}`));
  }

  @Get([START_SCRIPT, ...Object.keys(ASSETS)].map((file) => `${PAGE_PATH}/${file}`))
  asset(@Req() req: Request, @Res() res: Response) {
    const file = path.posix.basename(req.path);
    if (file === START_SCRIPT) {
      res.type('text/javascript; charset=utf-8').send(START);
      return;
    }
    res.type(ASSETS[file]).sendFile(path.join(assetsDir(), file));
  }
}
