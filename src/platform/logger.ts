import { pino, stdTimeFunctions, type DestinationStream, type Logger as Pino } from 'pino';
import type { LogLevel } from './config.ts';

/**
 * The logger every part of the gateway writes to: pino, one JSON object per line with an ISO timestamp
 * (`time`), a level name (`level`) and the message (`msg`). Details never carry request bodies; what could
 * still slip into a line is scrubbed twice:
 * - by path (`redact`): the Authorization, Cookie and X-CSRF-Token headers, and fields named like
 *   documents, keys or secrets;
 * - by shape, on the finished line (`hooks.streamWrite`): API keys (`pixg_…`), webhook secrets
 *   (`whsec_…`), operator tokens (`adm_…`), bearer credentials, and CPF/CNPJ numbers, formatted or not.
 */
export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  debug(message: string, details?: Record<string, unknown>): void;
  /** The pino instance behind it: the HTTP access log (src/http/accessLog.ts) writes through a child. */
  readonly pino: Pino;
}

const CENSOR = '[REDACTED]';
/** Characters of log lines waiting for stdout, at most (see createLogger). */
const LOG_BUFFER_MAX = 32 * 1024 * 1024;

/** Paths redacted wherever they appear in a line's object (one level of nesting below the root too). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  ...['document', 'responsibleCpf', 'companyCnpj', 'pixKey', 'secret', 'apiKey', 'token', 'password'].flatMap((field) => [
    field,
    `*.${field}`,
  ]),
];

/** Shapes scrubbed from every finished line, whatever field carries them. */
const SCRUBBED: [RegExp, string][] = [
  [/pixg_[0-9a-fA-F]{6,}/g, `pixg_${CENSOR}`],
  [/whsec_[A-Za-z0-9+/=]{6,}/g, `whsec_${CENSOR}`],
  [/adm_[A-Za-z0-9_]{6,}/g, `adm_${CENSOR}`],
  [/(Bearer|Basic)\s+[^\s"\\]+/gi, `$1 ${CENSOR}`],
  // CPF and CNPJ, formatted (529.982.247-25, 11.222.333/0001-81) or bare (11 digits; 14 digits or the
  // alphanumeric CNPJ form), never inside a longer token (ids, end-to-end ids, hashes).
  [/(?<![\w.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w])/g, CENSOR],
  [/(?<![\w.])[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}(?![\w])/g, CENSOR],
  [/(?<![\w.])\d{11}(?![\w.])/g, CENSOR],
  [/(?<![\w.])(?=[0-9A-Z]*\d)[0-9A-Z]{12}\d{2}(?![\w.])/g, CENSOR],
];

/** Removes secrets and documents from a finished log line (exported for its tests). */
export function scrubLine(line: string): string {
  let out = line;
  for (const [pattern, replacement] of SCRUBBED) out = out.replace(pattern, replacement);
  return out;
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go (default: stdout). Tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const base = pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: CENSOR },
      hooks: { streamWrite: scrubLine },
    },
    // Asynchronous: lines written while a write is in flight go out together in one system call (a
    // synchronous write per access line was the largest single cost of a read under load). pino flushes
    // what is pending synchronously when the process exits, so a crash or SIGTERM loses no line. A reader
    // of stdout that stalls no longer blocks requests; past LOG_BUFFER_MAX of pending lines new ones are
    // dropped rather than held (memory stays bounded; money and audit records are in the database).
    options.destination ?? pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX }),
  );
  return wrap(base);
}

function wrap(base: Pino): Logger {
  return {
    error: (message, details) => base.error(details ?? {}, message),
    warn: (message, details) => base.warn(details ?? {}, message),
    info: (message, details) => base.info(details ?? {}, message),
    debug: (message, details) => base.debug(details ?? {}, message),
    pino: base,
  };
}
