/** What the hub and its parts log: a pino logger fits, tests pass nothing or a recorder. */
export interface HubLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}
