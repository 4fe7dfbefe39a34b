/**
 * The logger every part of the gateway writes to: one JSON object per line. Details never carry request
 * headers, bodies, API keys, secrets or personal documents.
 */
export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  error: (message, details) => console.error(JSON.stringify({ level: 'error', message, ...details })),
  info: (message, details) => console.log(JSON.stringify({ level: 'info', message, ...details })),
};
