import type { NextFunction, Request, Response } from 'express';

/**
 * GET (a server-sent event stream) and DELETE (a session's end) of /mcp/{org}: this server keeps no session and
 * offers no stream, which Streamable HTTP says with 405 (clients then carry on over POST alone). It answers any
 * caller the same and touches nothing, so it needs no credential. A plain Express layer, not a route: the route
 * table holds what the guards protect.
 */
export function mcpMethodNotAllowed(req: Request, res: Response, next: NextFunction): void {
  if ((req.method !== 'GET' && req.method !== 'DELETE') || (req.path !== '/' && req.path !== '')) return next();
  res.status(405).setHeader('Allow', 'POST');
  res.json({ message: 'Method not allowed: this MCP server keeps no session and offers no event stream; POST each message', errors: null });
}
