import { cleanupOnExit } from './cleanupOnExit.js';
import { runLocalScript, runLocalScriptSync } from './localScripts.js';

export interface LocalKafka {
  /** 127.0.0.1:PORT */
  readonly brokers: string;
  readonly port: number;
  /** SIGKILL: a crash; the data stays for `restart()`. */
  kill(): Promise<void>;
  /** Starts the broker again on the same port with its data. */
  restart(): Promise<void>;
  /** Graceful stop; removes its state folder. */
  stop(): Promise<void>;
}

/**
 * A Kafka broker of its own (infra/local/kafka.sh), for tests that kill or restart Kafka and so
 * cannot share the global one. Needs Java and the cached jars (or Maven): it rejects otherwise.
 */
export const startLocalKafka = async (): Promise<LocalKafka> => {
  const brokers = await runLocalScript('kafka.sh', ['start'], 900_000);
  const port = Number(brokers.split(':').pop());
  const unregister = cleanupOnExit(() => runLocalScriptSync('kafka.sh', ['stop', String(port)]));
  return {
    brokers,
    port,
    kill: async () => void (await runLocalScript('kafka.sh', ['kill', String(port)])),
    restart: async () => void (await runLocalScript('kafka.sh', ['start', '--port', String(port)], 180_000)),
    stop: async () => {
      unregister();
      await runLocalScript('kafka.sh', ['stop', String(port)]);
    },
  };
};
