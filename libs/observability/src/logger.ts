import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { redactText, redactValue } from './redaction.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type { Logger } from 'pino';

export interface LoggerConfig {
  readonly level: LogLevel;
  /** The process or component name, written as `name` on every line. */
  readonly name: string;
  /** Where JSON lines go; stdout by default. Tests pass a memory stream. */
  readonly destination?: DestinationStream;
}

/**
 * A pino JSON logger that cannot leak secrets: every logged object passes through
 * `redactValue` (X-API-Key, Authorization, cookies, the `apiKey` query parameter, raw
 * `pk_…` keys) and so do message strings.
 */
export const createLogger = (config: LoggerConfig): Logger => {
  const options: LoggerOptions = {
    name: config.name,
    level: config.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: (error: unknown) => redactValue(error) },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => redactValue(object) as Record<string, unknown>,
      bindings: (bindings) => redactValue(bindings) as Record<string, unknown>,
    },
    hooks: {
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        // pino copies an Error's message into `msg` before formatters run: clean it here.
        if (first instanceof Error) {
          const message = rest.length > 0 ? rest : [redactText(first.message)];
          method.apply(this, [{ err: redactValue(first) }, ...message.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg))] as Parameters<typeof method>);
          return;
        }
        const cleaned = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)) as Parameters<typeof method>;
        method.apply(this, cleaned);
      },
    },
  };
  return config.destination ? pino(options, config.destination) : pino(options);
};
