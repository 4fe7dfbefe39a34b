/**
 * The one error type the HTTP layer understands: services throw it with the contract's status and message,
 * the error middleware turns it into `{ "error": message, ...extra }`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    message: string,
    options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
