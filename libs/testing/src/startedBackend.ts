/** A backend the global setup found or started: where it is, where it came from, how to stop it. */
export interface StartedBackend {
  readonly url: string;
  /** e.g. `REDIS_URL`, `testcontainers redis:7.2-alpine`, `infra/local/redis.sh`. */
  readonly source: string;
  stop(): Promise<void>;
  /** Synchronous best-effort stop for a process that exits before the teardown ran. */
  stopSync?(): void;
}
