/**
 * The write buffer of one APPLY call (docs/read-models.md, "Batched writes"). The entries of a
 * call do not write as they go: each write records the FINAL state of what it touches (a string
 * key's value, a hash field's value, a sorted-set member's score, false = gone), and
 * `flushWrites` issues those states at the end, one bulk command per key (one MSET for all
 * strings). Reads go through the same tables, so a later entry of the call sees what an earlier
 * one wrote. A script runs atomically, so nobody sees the order of the writes, only their result,
 * which equals that of writing in order: each buffered command sets or removes one string, one
 * field or one member, and only the last one per target survives. A sorted set's trim and TTL
 * (the history) are applied after its members. Steps that read or drop whole keys (the collection
 * record) flush first. Tables are iterated in no fixed order: Redis 7 replicates a script's
 * effects, not the script, and the final state does not depend on that order.
 */
export const WRITE_BUFFER_LUA = `
local strCur, strDirty = {}, {}
local hashCur, hashDirty = {}, {}
local zsetPending, zsetTail = {}, {}

local function readStr(key)
  local v = strCur[key]
  if v == nil then v = redis.call('GET', key) strCur[key] = v end
  return v
end
-- value false deletes the key.
local function writeStr(key, value) strCur[key] = value strDirty[key] = true end
local function hashOf(key)
  local h = hashCur[key]
  if not h then h = {} hashCur[key] = h end
  return h
end
local function readField(key, field)
  local h = hashOf(key)
  local v = h[field]
  if v == nil then v = redis.call('HGET', key, field) h[field] = v end
  return v
end
-- value false deletes the field.
local function writeField(key, field, value)
  hashOf(key)[field] = value
  local d = hashDirty[key]
  if not d then d = {} hashDirty[key] = d end
  d[field] = true
end
-- score false removes the member.
local function zsetWrite(key, member, score)
  local z = zsetPending[key]
  if not z then z = {} zsetPending[key] = z end
  z[member] = score
end
-- After the members: drop those scored at or below trim (0: none), then set the TTL (ms).
local function zsetTrimExpire(key, trim, ttl)
  local t = zsetTail[key]
  if not t then zsetTail[key] = { trim, ttl } return end
  if tonumber(trim) > tonumber(t[1]) then t[1] = trim end
  t[2] = ttl
end
-- Reads many values in calls of at most 512 arguments into the read caches (prefetch). strKeys:
-- string keys; fieldsOf: hash key -> list of fields. Only before the first write of the call.
local function readAhead(strKeys, fieldsOf)
  for i = 1, #strKeys, 512 do
    local last = math.min(#strKeys, i + 511)
    local values = redis.call('MGET', unpack(strKeys, i, last))
    for j = i, last do strCur[strKeys[j]] = values[j - i + 1] end
  end
  for key, fields in pairs(fieldsOf) do
    local h = hashOf(key)
    for i = 1, #fields, 512 do
      local last = math.min(#fields, i + 511)
      local values = redis.call('HMGET', key, unpack(fields, i, last))
      for j = i, last do h[fields[j]] = values[j - i + 1] end
    end
  end
end
-- A whole key's cached fields are stale once a step wrote it directly (after a flush).
local function forgetHash(key) hashCur[key] = nil end

-- In calls of at most 512 arguments: unpack has a stack limit.
local function bulk(cmd, key, list)
  local i = 1
  while i <= #list do
    local last = math.min(#list, i + 511)
    if key then redis.call(cmd, key, unpack(list, i, last)) else redis.call(cmd, unpack(list, i, last)) end
    i = last + 1
  end
end
local function flushHashes()
  for key, fields in pairs(hashDirty) do
    local h, sets, dels = hashCur[key], {}, {}
    for field in pairs(fields) do
      local v = h[field]
      if v then sets[#sets + 1] = field sets[#sets + 1] = v else dels[#dels + 1] = field end
    end
    bulk('HSET', key, sets)
    bulk('HDEL', key, dels)
  end
  hashDirty = {}
end
local function flushSortedSets()
  for key, members in pairs(zsetPending) do
    local adds, rems = {}, {}
    for member, score in pairs(members) do
      if score then adds[#adds + 1] = score adds[#adds + 1] = member else rems[#rems + 1] = member end
    end
    bulk('ZADD', key, adds)
    bulk('ZREM', key, rems)
  end
  for key, t in pairs(zsetTail) do
    if tonumber(t[1]) > 0 then redis.call('ZREMRANGEBYSCORE', key, '-inf', t[1]) end
    redis.call('PEXPIRE', key, t[2])
  end
  zsetPending, zsetTail = {}, {}
end
-- Issues every buffered write. The read caches stay valid: Redis now holds what they say.
local function flushWrites()
  local sets, dels = {}, {}
  for key in pairs(strDirty) do
    local v = strCur[key]
    if v then sets[#sets + 1] = key sets[#sets + 1] = v else dels[#dels + 1] = key end
  end
  bulk('MSET', nil, sets)
  bulk('DEL', nil, dels)
  strDirty = {}
  flushHashes()
  flushSortedSets()
end
`;
