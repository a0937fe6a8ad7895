/**
 * Retries what kafkajs marks retriable but does not retry itself: right after a topic is created or
 * a broker restarts, ListOffsets can answer "not the leader" until the metadata settles.
 * Waits 50 ms, 100 ms, … (at most 1 s) between attempts.
 */
export async function retryRetriable<T>(operation: () => Promise<T>, attempts = 20, sleep = defaultSleep): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const retriable = (error as { retriable?: boolean } | null)?.retriable === true;
      if (!retriable || attempt >= attempts) throw error;
      await sleep(Math.min(1_000, 50 * attempt));
    }
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
