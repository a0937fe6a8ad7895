import { EventLogOpenError } from '@pubstream/event-store';
import { AdminApiError } from '../adminClient.js';
import { CliError } from './cliError.js';

/** How the CLI reports a command that failed: one stderr line (a stack only for the unexpected) and an exit code. */
export const describeCliFailure = (error: unknown): { message: string; exitCode: number } => {
  if (error instanceof CliError) return { message: `pubstream: ${error.message}`, exitCode: error.exitCode };
  if (error instanceof EventLogOpenError || error instanceof AdminApiError) return { message: `pubstream: ${error.message}`, exitCode: 1 };
  if ((error as { code?: string } | null)?.code === 'EADDRINUSE') {
    return { message: `pubstream: ${(error as Error).message} (another process uses the port; set PORT / ADMIN_PORT)`, exitCode: 1 };
  }
  return { message: `pubstream: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, exitCode: 1 };
};
