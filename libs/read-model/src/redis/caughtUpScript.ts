/**
 * ProjectionStore.markCaughtUp on Redis (docs/read-models.md, "Unknown is not missing"): sets the
 * caught-up marker only when the projection's stored checkpoint has reached the position, in one
 * step, so a projector that has not yet noticed that Redis was emptied cannot mark the empty store.
 * Both keys carry the `{m}` hash tag (one cluster slot).
 * KEYS: checkpoints hash, marker. ARGV: projection, position. Returns 1 when the marker is set (now or
 * before), else 0.
 */
export const MARK_CAUGHT_UP = `
local checkpoint = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if checkpoint < tonumber(ARGV[2]) then return redis.call('EXISTS', KEYS[2]) end
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;
