import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';

/**
 * The web applications' files as the browser asks for them: `scripts/build-web.ts` writes a brotli (`.br`,
 * quality 11) and a gzip (`.gz`, level 9) copy beside each asset and each page; the request's
 * Accept-Encoding picks one (brotli first, then gzip, else the file itself), answered with its
 * Content-Encoding, the original's Content-Type and `Vary: Accept-Encoding`. Conditional requests (304),
 * HEAD and ranges are `send`'s, as for any file.
 */

export type Coding = 'br' | 'gzip';

const EXTENSION: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/** The codings the request accepts, by preference (q-values, then brotli before gzip). */
export function acceptedCodings(header: string | undefined): Coding[] {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (name === '') continue;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weightOf = (coding: Coding): number => weights.get(coding) ?? (weights.has('*') ? (weights.get('*') ?? 0) : 0);
  return (['br', 'gzip'] as const).filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

const isFile = (file: string): boolean => existsSync(file) && statSync(file).isFile();

/** Sends `file` (an absolute path under `root`), its compressed copy when the request accepts one. */
export function sendPrecompressed(req: Request, res: Response, root: string, relative: string, cacheControl: string, next: (error?: unknown) => void): void {
  const file = path.resolve(root, `.${path.posix.sep}${relative}`);
  if (!file.startsWith(`${path.resolve(root)}${path.sep}`) || /\.(br|gz)$/.test(file) || !isFile(file)) {
    next();
    return;
  }
  res.vary('Accept-Encoding');
  res.type(path.extname(file));
  let sent = file;
  for (const coding of acceptedCodings(req.get('accept-encoding'))) {
    if (isFile(`${file}${EXTENSION[coding]}`)) {
      sent = `${file}${EXTENSION[coding]}`;
      res.setHeader('Content-Encoding', coding);
      break;
    }
  }
  res.setHeader('Cache-Control', cacheControl);
  res.sendFile(sent, { cacheControl: false, dotfiles: 'deny' }, (error) => {
    if (error && !res.headersSent) next(error);
  });
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves the files of `dir` (hashed names: cached for a year, immutable) precompressed. */
export function precompressedAssets(dir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      next();
      return;
    }
    sendPrecompressed(req, res, dir, relative, IMMUTABLE, next);
  };
}
