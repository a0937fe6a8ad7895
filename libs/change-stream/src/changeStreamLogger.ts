/** The slice of a pino logger the change-stream adapters use for what they cannot throw. */
export interface ChangeStreamLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: ChangeStreamLogger = { warn: () => {}, error: () => {} };
