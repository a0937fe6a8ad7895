/**
 * The change history's Lua (docs/read-models.md, "Change history"). History sets are sorted sets
 * scored by log position: a collection's holds the entries' JSON (the data, once), an item's holds
 * `<position>:<slug>` pointers to them. The time index (`{m}` slot) maps the log's recording
 * time to the applied position, one point per step; the floor and the trim position come from it.
 */
import { COLLECTION_KEYS_LUA } from './redisKeys.js';

/**
 * Write helpers, prepended to APPLY (after COLLECTION_KEYS_LUA and the write buffer of
 * writeBufferScript.ts). `addHistory` adds a member (nothing when ''), drops the set's members at
 * or below `trim` (0: none) and renews its TTL, so a set nobody writes any more disappears a little
 * after one window. A collection's history takes many members per call and goes through the buffer;
 * an item's index takes one, and is written at once (a buffered key would cost more than it saves).
 */
export const HISTORY_WRITE_LUA = `
local function addHistory(key, position, member, trim, ttl)
  if member == '' then return end
  zsetWrite(key, member, position)
  zsetTrimExpire(key, trim, ttl)
end
local function addItemHistory(key, position, member, trim, ttl)
  if member == '' then return end
  redis.call('ZADD', key, position, member)
  if tonumber(trim) > 0 then redis.call('ZREMRANGEBYSCORE', key, '-inf', trim) end
  redis.call('PEXPIRE', key, ttl)
end
local function touchLastChange(P, position)
  local cur = readStr(lastChangeKey(P))
  if not cur or tonumber(cur) < tonumber(position) then writeStr(lastChangeKey(P), position) end
end
`;

/**
 * The checkpoint never moves back; with a lease it is written only by the current holder.
 * KEYS[1] = checkpoint hash. ARGV: projection, position, lease key ('' = none), lease value, then
 * for a batch that recorded history (else ''): history meta hash, time index, at ms, window ms, step ms.
 * Recording notes `start` (the checkpoint before the first recorded batch) and the window, adds the
 * point (at → position), replacing the newest point while it is less than a step after the one
 * before it (so the newest point is always the last batch), and forgets the points older than the
 * newest one at or before at − window − step. Returns -1 when fenced, else the trim position for
 * the next batch: the applied position at that point (one step older than the floor: margin for
 * clocks).
 */
export const CHECKPOINT = `
if ARGV[3] ~= '' and redis.call('GET', ARGV[3]) ~= ARGV[4] then return -1 end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur or tonumber(cur) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if ARGV[5] == nil or ARGV[5] == '' then return 0 end
local meta, times = ARGV[5], ARGV[6]
local at, window, step = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local position = math.max(tonumber(cur or '0'), tonumber(ARGV[2]))
redis.call('HSETNX', meta, 'start', cur or '0')
redis.call('HSET', meta, 'window', ARGV[8])
local last = redis.call('ZRANGE', times, -2, -1, 'WITHSCORES')
if #last == 4 and at - tonumber(last[2]) < step then redis.call('ZREM', times, last[3]) end
redis.call('ZADD', times, at, string.format('%.0f', position))
local keep = redis.call('ZREVRANGEBYSCORE', times, at - window - step, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
if keep[2] then redis.call('ZREMRANGEBYSCORE', times, '-inf', '(' .. keep[2]) end
return tonumber(keep[1] or '0')
`;

/**
 * historyFloor. KEYS[1] = history meta hash. ARGV: time index, checkpoint hash, applied checkpoint
 * name, now ms. Before any recorded batch, the applied checkpoint (nothing older is known).
 */
export const HISTORY_FLOOR = `
local start = redis.call('HGET', KEYS[1], 'start')
if not start then return tonumber(redis.call('HGET', ARGV[2], ARGV[3]) or '0') end
local floor = tonumber(start)
local window = redis.call('HGET', KEYS[1], 'window')
if window then
  local point = redis.call('ZREVRANGEBYSCORE', ARGV[1], tonumber(ARGV[4]) - tonumber(window), '-inf', 'LIMIT', 0, 1)
  if point[1] then floor = math.max(floor, tonumber(point[1])) end
end
return floor
`;

/**
 * A collection's changes after a position. KEYS[1] = the collection's history. ARGV: P, after,
 * limit. Returns {lastChange, hasMore (0/1), entry json...}, read at one instant.
 */
export const COLLECTION_CHANGES = `${COLLECTION_KEYS_LUA}
local limit = tonumber(ARGV[3])
local last = tonumber(redis.call('GET', lastChangeKey(ARGV[1])) or '0')
local found = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[2], '+inf', 'LIMIT', 0, limit + 1)
local out = { last, #found > limit and 1 or 0 }
for i = 1, math.min(#found, limit) do out[i + 2] = found[i] end
return out
`;

/** The entries of a collection's history at these positions. KEYS[1] = the history. ARGV: positions. */
export const HISTORY_ENTRIES = `
local out = {}
for i = 1, #ARGV do
  local found = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[i], ARGV[i])
  for _, entry in ipairs(found) do out[#out + 1] = entry end
end
return out
`;
