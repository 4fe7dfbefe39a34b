import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { OperatorTokenInvalid } from './backoffice.errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Bearer operator token of the back office, compared in constant time (hashes have equal length). */
export function operatorAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) return next(new OperatorTokenInvalid());
    next();
  };
}
