/** Exit statuses of `chorus`: 1 when a command failed, 2 for a wrong invocation or a command not available. */
const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A failure the CLI reports as one line on stderr (no stack), with its exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILED,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
