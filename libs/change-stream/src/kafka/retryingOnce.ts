/** A resource set up once on first use; a failed set-up is forgotten so the next use tries again. */
export interface RetryingOnce<T> {
  /** The set-up, started now if it is not under way or done. */
  get(): Promise<T>;
  /** The set-up under way or done, if any (undefined before first use and after a failure). */
  readonly started: Promise<T> | undefined;
}

/** Wraps `setUp` as a {@link RetryingOnce}. */
export function retryingOnce<T>(setUp: () => Promise<T>): RetryingOnce<T> {
  let pending: Promise<T> | undefined;
  return {
    get() {
      pending ??= setUp().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    get started() {
      return pending;
    },
  };
}
