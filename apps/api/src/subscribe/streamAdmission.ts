import { RateLimitedError } from '@pubstream/domain';
import { tooManyStreamsMessage, type StreamSlots } from '@pubstream/access';
import { addressBucket } from './addressBucket.js';

export interface StreamAdmissionOptions {
  /** The per-key cap, counted across every API node (Redis) or in this process (memory). */
  readonly slots: StreamSlots;
  /** Concurrent streams per client address (an IPv6 /64) on this node; 0 = no cap (MAX_STREAMS_PER_ADDRESS). */
  readonly maxStreamsPerAddress: number;
  /**
   * Where the per-address cap is counted when several processes share the port (the API workers'
   * primary, as slots of `address:<bucket>`); absent: in this process.
   */
  readonly addressSlots?: StreamSlots;
  /** How often this node refreshes its slots: well under the slots' TTL. Default 5 s. */
  readonly heartbeatMs?: number;
  readonly logger?: { warn(details: object, message: string): void };
}

export interface AdmissionRequest {
  readonly address: string;
  readonly keyId: string;
  readonly streamId: string;
  /** The key's cap (the plan's, or the operator's lower one). */
  readonly limit: number;
  readonly planName: string;
}

/** Who may open one more stream (docs/subscriptions.md, "Caps"). */
export interface StreamAdmission {
  /**
   * Admits one stream, or throws 429 (too many from this address, or for this key) or 503 (the
   * slots cannot be reached). Resolves with the release, to call once when the stream is over.
   */
  admit(request: AdmissionRequest): Promise<() => void>;
  /** Streams open on this node from the address's bucket. */
  streamsFrom(address: string): number;
  /** Stops the heartbeat. */
  close(): void;
}

export const createStreamAdmission = (options: StreamAdmissionOptions): StreamAdmission => {
  const { slots, addressSlots, maxStreamsPerAddress, logger } = options;
  const perAddress = new Map<string, number>();
  const heartbeat = setInterval(() => {
    slots.refresh().catch((error: unknown) => logger?.warn({ err: error }, 'refreshing stream slots failed; retrying at the next heartbeat'));
  }, options.heartbeatMs ?? 5_000);
  heartbeat.unref();

  const leave = (bucket: string): void => {
    const open = (perAddress.get(bucket) ?? 1) - 1;
    if (open <= 0) perAddress.delete(bucket);
    else perAddress.set(bucket, open);
  };

  return {
    async admit(request) {
      const bucket = addressBucket(request.address);
      const open = perAddress.get(bucket) ?? 0;
      const tooMany = () =>
        new RateLimitedError(`Too many concurrent streams from this address: at most ${maxStreamsPerAddress} per server. Close a stream before opening another.`, 5, 'streams_per_address');
      if (maxStreamsPerAddress > 0 && open >= maxStreamsPerAddress) throw tooMany();
      // Counted before the await, so that concurrent requests from one address cannot all pass.
      perAddress.set(bucket, open + 1);
      const addressSlot = addressSlots && maxStreamsPerAddress > 0 ? `address:${bucket}` : null;
      const releaseAddress = () => addressSlot && addressSlots && void addressSlots.release(addressSlot, request.streamId).catch(() => {});
      let taken: boolean;
      try {
        if (addressSlot && addressSlots && !(await addressSlots.acquire(addressSlot, request.streamId, maxStreamsPerAddress))) throw tooMany();
        taken = await slots.acquire(request.keyId, request.streamId, request.limit);
      } catch (error) {
        leave(bucket);
        if (!(error instanceof RateLimitedError)) releaseAddress();
        throw error;
      }
      if (!taken) {
        leave(bucket);
        releaseAddress();
        throw new RateLimitedError(tooManyStreamsMessage(request.planName, request.limit), null, 'streams_per_key');
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        leave(bucket);
        releaseAddress();
        slots.release(request.keyId, request.streamId).catch((error: unknown) =>
          logger?.warn({ err: error, keyId: request.keyId }, 'releasing a stream slot failed; it expires without heartbeats'),
        );
      };
    },
    streamsFrom: (address) => perAddress.get(addressBucket(address)) ?? 0,
    close: () => clearInterval(heartbeat),
  };
};
