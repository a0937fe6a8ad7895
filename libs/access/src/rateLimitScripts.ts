import { luaScript as script } from './redisScripts.js';

/** The Redis server's clock in Unix ms: every node sees the same time (TIME; Redis ≥ 5 replicates effects). */
const SERVER_CLOCK = "(function() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end)()";
/** Only for the tests that check the script's arithmetic at chosen times: never used to limit. */
const ARGUMENT_CLOCK = 'tonumber(ARGV[#ARGV])';

/**
 * The sliding window of slidingWindow.ts, on the server: KEYS[1] is the key's hash of buckets
 * (field: bucket index, value: "count:last ms") plus c (the buckets' total), o (the oldest
 * bucket's index) and t (the latest request's ms), so that a call reads a handful of fields,
 * never the whole window. ARGV = limit, window ms, bucket ms. Returns {allowed 1|0, remaining,
 * reset ms, server now ms}. One key, so it runs on Redis Cluster; the hash expires when its
 * latest request leaves the window.
 */
// A Lua script is one unit: cut into template pieces it would be harder to read and to check.
// eslint-disable-next-line max-lines-per-function
const windowText = (clock: string): string => `
local limit, window, size = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = ${clock}
local key = KEYS[1]
local function int(n) return string.format('%d', n) end
local function bucket(index)
  local value = redis.call('HGET', key, int(index))
  if not value then return nil, nil end
  local count, last = string.match(value, '^(%d+):(%d+)$')
  return tonumber(count), tonumber(last)
end
local meta = redis.call('HMGET', key, 'c', 'o', 't')
local used, oldest, latest = tonumber(meta[1]) or 0, tonumber(meta[2]), tonumber(meta[3])
-- A key's clock never goes back (a server clock stepped back must not reopen spent slots).
if latest ~= nil and latest > now then now = latest end
local current = math.floor(now / size)
-- Idle for a whole window: nothing counts any more (and the walk below stays short).
if latest ~= nil and latest <= now - window then
  redis.call('DEL', key)
  used, oldest = 0, nil
end
-- Buckets whose latest request has left the window go, oldest first, up to the first live one.
local dirty = false
while oldest ~= nil do
  local count, last = bucket(oldest)
  if count ~= nil and last > now - window then break end
  if count ~= nil then
    redis.call('HDEL', key, int(oldest))
    used = used - count
  end
  dirty = true
  oldest = oldest + 1
  if oldest > current then oldest = nil end
end
local allowed = used < limit
if allowed then
  local count = bucket(current) or 0
  used = used + 1
  if oldest == nil then oldest = current end
  redis.call('HSET', key, int(current), int(count + 1) .. ':' .. int(now), 'c', int(used), 'o', int(oldest), 't', int(now))
  redis.call('PEXPIREAT', key, int(now + window))
elseif dirty and oldest == nil then
  redis.call('DEL', key)
elseif dirty then
  redis.call('HSET', key, 'c', int(used), 'o', int(oldest))
end
local remaining = math.max(0, limit - used)
local reset = now + window
if remaining == 0 then
  -- When enough of the oldest buckets have left the window for one more request to fit.
  local left, index = used, oldest
  while index ~= nil and index <= current do
    local count, last = bucket(index)
    if count ~= nil then
      left = left - count
      if left < limit then
        reset = last + window
        break
      end
    end
    index = index + 1
  end
end
return { allowed and 1 or 0, remaining, reset, now }
`;

/** Proleptic Gregorian calendar (H. Hinnant's civil-date algorithms): Redis' Lua has no os.date. */
const CALENDAR = `
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end
local function month_of(ms)
  local z = math.floor(ms / 86400000) + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400
  if m <= 2 then y = y + 1 end
  return y * 12 + m - 1
end
local function month_end(month)
  local next = month + 1
  return days_from_civil(math.floor(next / 12), next % 12 + 1, 1) * 86400000
end
`;

/**
 * The monthly quota of monthlyQuota.ts, on the server: KEYS[1] is a hash {m: year × 12 + month
 * index (UTC), c: count}, ARGV = quota. Returns {allowed 1|0, remaining, month end ms, now ms}.
 */
const quotaText = (clock: string): string => `${CALENDAR}
local quota = tonumber(ARGV[1])
local now = ${clock}
local stored = redis.call('HMGET', KEYS[1], 'm', 'c')
local month = month_of(now)
local used = 0
local storedMonth = tonumber(stored[1])
if storedMonth ~= nil and storedMonth >= month then
  month = storedMonth
  used = tonumber(stored[2]) or 0
end
local allowed = used < quota
if allowed then
  used = used + 1
  redis.call('HSET', KEYS[1], 'm', string.format('%d', month), 'c', string.format('%d', used))
  redis.call('PEXPIREAT', KEYS[1], string.format('%d', month_end(month)))
end
return { allowed and 1 or 0, math.max(0, quota - used), month_end(month), now }
`;

export const WINDOW_SCRIPT = script(windowText(SERVER_CLOCK));
export const QUOTA_SCRIPT = script(quotaText(SERVER_CLOCK));

/** The same scripts reading "now" from their last argument, for tests of their arithmetic only. */
export const SCRIPTS_AT_GIVEN_TIME = {
  window: script(windowText(ARGUMENT_CLOCK)),
  quota: script(quotaText(ARGUMENT_CLOCK)),
  monthEnd: script(`${CALENDAR}\nreturn month_end(month_of(tonumber(ARGV[1])))`),
} as const;
