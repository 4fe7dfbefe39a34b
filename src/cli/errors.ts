/**
 * The one error type of the CLI. `exitCode` is what the process exits with: 1 for a usage mistake or an
 * error answered by the server, 2 when the server could not be reached at all (so scripts can tell "the
 * server said no" from "there was no server").
 */
export const EXIT_FAILURE = 1;
export const EXIT_UNREACHABLE = 2;

export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number = EXIT_FAILURE) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A mistake in the command line itself: nothing was sent. */
export function usageError(message: string): CliError {
  return new CliError(`${message} Run 'help' for usage.`, EXIT_FAILURE);
}
