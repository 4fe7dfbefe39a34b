import type { Request, RequestHandler, Response } from 'express';
import type { IpMessageFamily } from '../accounts/account.errors.ts';
import type { AuthContext } from '../accounts/auth.ts';
import type { Deps } from '../platform/deps.ts';

/**
 * API-key authentication of the merchant API, as middleware, and `authOf(res)` for the operations that
 * read who is calling. Route files import this module, never the router that mounts them.
 */

/**
 * The contract words the allowlist refusal per endpoint: POST /v1/withdraw and POST /v1/recipients have
 * their own texts; every other operation (GET /v1/recipients included) the general one.
 */
function ipFamily(method: string, path: string): IpMessageFamily {
  if (method !== 'POST') return 'default';
  if (path === '/v1/withdraw' || path === '/v1/withdraw/') return 'withdraw';
  if (path === '/v1/recipients' || path === '/v1/recipients/') return 'recipients';
  return 'default';
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Error('route mounted without authentication');
  return auth;
}

export function authenticate(deps: Deps): RequestHandler {
  return async (req: Request, res, next) => {
    const path = req.baseUrl + req.path;
    res.locals.auth = await deps.authenticator.authenticate(req.get('authorization'), req.ip ?? '', ipFamily(req.method, path));
    next();
  };
}
