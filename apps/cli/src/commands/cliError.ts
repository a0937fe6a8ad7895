/** A failure the CLI reports in one line. Exit codes: 1 runtime failure, 2 bad configuration or usage. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}
