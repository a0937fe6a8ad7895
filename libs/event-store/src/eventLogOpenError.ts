/**
 * The event log file cannot be used: corrupt, not a SQLite database, or not readable. Its message
 * is one line naming the file and what to do, for the process to print instead of a stack trace.
 */
export class EventLogOpenError extends Error {
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventLogOpenError';
    this.path = path;
  }
}

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/** Translates SQLite's open-time failures into one actionable line; other errors pass through. */
export const describeOpenFailure = (path: string, error: unknown): unknown => {
  const code = codeOf(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new EventLogOpenError(
      path,
      `The event log ${path} is corrupt or not a SQLite database (${reason}): restore it from a backup, or move it away to start with an empty log`,
      { cause: error },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code === 'EACCES' || code === 'EPERM') {
    return new EventLogOpenError(path, `The event log ${path} cannot be opened for writing (${reason}): check that the file and its folder exist and are writable by this user (DATA_DIR / EVENT_STORE_URL)`, {
      cause: error,
    });
  }
  return error;
};
