/** The logging the projector needs; a pino logger fits. */
export interface ProjectorLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: ProjectorLogger = { debug() {}, info() {}, warn() {}, error() {} };
