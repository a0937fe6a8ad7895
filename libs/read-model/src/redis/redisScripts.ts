/**
 * Lua scripts of the Redis read model. On a cluster each call touches keys of ONE hash tag (one
 * slot): KEYS[1] routes the call, further key names come in ARGV and carry the same tag. On a
 * single Redis node (not in cluster mode) one call may touch any key, which the batched writes use.
 * Every write is version-guarded so that running it twice changes nothing. Key names come from
 * redisKeys.ts: full names in KEYS / ARGV, a collection's keys through COLLECTION_KEYS_LUA.
 */
import { HISTORY_WRITE_LUA } from './historyScripts.js';
import { COLLECTION_KEYS_LUA } from './redisKeys.js';
import { WRITE_BUFFER_LUA } from './writeBufferScript.js';

export { COLLECTION_PAGE } from './collectionPageScript.js';
export { CHECKPOINT, COLLECTION_CHANGES, HISTORY_ENTRIES, HISTORY_FLOOR } from './historyScripts.js';

// Shared by the write entries. Index keys under a collection prefix P (which holds the {c:slug}
// tag): z:<field> sorted set of items with a value, m:<field> set (score 0) of items without one.
// Numbers: score = value, member = dataId (equal scores order by dataId). Strings: score 0,
// member = value with NUL escaped as NUL 0xFF, then NUL, then dataId: byte order of members is
// code point order of values, then dataId (0xFF never occurs in UTF-8, dataIds start with [A-Za-z0-9]).
// Writes go through the buffer of writeBufferScript.ts, issued in bulk at the end of the call.
const WRITE_FUNCTIONS = `${COLLECTION_KEYS_LUA}${WRITE_BUFFER_LUA}${HISTORY_WRITE_LUA}
local function strMember(value, id) return (string.gsub(value, '%z', '\\0\\255')) .. '\\0' .. id end
local function numArg(v) return string.format('%.17g', v) end
local function fieldsOf(json)
  if not json then return {} end
  local fields = cjson.decode(json).sortableFields
  if type(fields) ~= 'table' then return {} end
  return fields
end
local function dataOf(json)
  local data = cjson.decode(json).data
  if type(data) ~= 'table' then return {} end
  return data
end
local function addField(P, field, value, id)
  if field.type == 'number' and type(value) == 'number' then
    zsetWrite(sortedKey(P, field.name), id, numArg(value))
  elseif field.type == 'string' and type(value) == 'string' then
    zsetWrite(sortedKey(P, field.name), strMember(value, id), '0')
  else
    zsetWrite(missingKey(P, field.name), id, '0')
  end
end
local function removeField(P, field, value, id)
  if field.type == 'string' and type(value) == 'string' then
    zsetWrite(sortedKey(P, field.name), strMember(value, id), false)
  else
    zsetWrite(sortedKey(P, field.name), id, false)
  end
  zsetWrite(missingKey(P, field.name), id, false)
end
local function addTime(P, name, ms, id)
  if ms ~= '' then zsetWrite(sortedKey(P, name), id, ms) else zsetWrite(missingKey(P, name), id, '0') end
end

-- A record in a string key with its version in a second key ('' deletes).
local function guardedSet(key, versionKey, version, json)
  local cur = readStr(versionKey)
  if cur and tonumber(cur) >= tonumber(version) then return 0 end
  writeStr(versionKey, version)
  writeStr(key, json ~= '' and json)
  return 1
end

-- A record in a hash field with its version in a second hash ('' deletes).
local function guardedHset(key, versionKey, field, version, json)
  local cur = readField(versionKey, field)
  if cur and tonumber(cur) >= tonumber(version) then return 0 end
  writeField(versionKey, field, version)
  writeField(key, field, json ~= '' and json)
  return 1
end

-- An item's record with its history index (member '' = none).
local function itemRecord(key, versionKey, version, json, index, member, position, trim, ttl)
  local changed = guardedSet(key, versionKey, version, json)
  if changed == 1 then addItemHistory(index, position, member, trim, ttl) end
  return changed
end

-- Declared fields per collection, decoded once per call: only collectionRecord changes them.
local fieldsByPrefix = {}
local function declaredFields(P)
  local fields = fieldsByPrefix[P]
  if not fields then
    fields = fieldsOf(redis.call('GET', recordKey(P)))
    fieldsByPrefix[P] = fields
  end
  return fields
end

-- An item's membership in its collection: the item hash, the sorted indexes, the versions.
-- json '' deletes; createdMs / updatedMs '' when unparsable.
-- position: the change's log position; entry: its history entry ('' = none); trim, ttl: see addHistory.
local function collectionItem(P, id, version, json, createdMs, updatedMs, position, entry, trim, ttl)
  local cur = readField(itemVersionsKey(P), id)
  if cur and tonumber(cur) >= tonumber(version) then return 0 end
  writeField(itemVersionsKey(P), id, version)
  touchLastChange(P, position)
  addHistory(historyKey(P), position, entry, trim, ttl)
  local fields = declaredFields(P)
  -- The item hash is written only together with the versions, so without a version there is
  -- nothing to remove: a new item skips the lookup.
  local old = cur and readField(itemsKey(P), id)
  if old then
    for _, name in ipairs({'createdAt', 'updatedAt', 'dataId'}) do
      zsetWrite(sortedKey(P, name), id, false)
      zsetWrite(missingKey(P, name), id, false)
    end
    -- Only string members carry the value; the old JSON is decoded only when one is declared.
    local data = {}
    for _, field in ipairs(fields) do
      if field.type == 'string' then data = dataOf(old) break end
    end
    for _, field in ipairs(fields) do removeField(P, field, data[field.name], id) end
  end
  if json == '' then
    writeField(itemsKey(P), id, false)
    return 1
  end
  writeField(itemsKey(P), id, json)
  addTime(P, 'createdAt', createdMs, id)
  addTime(P, 'updatedAt', updatedMs, id)
  zsetWrite(sortedKey(P, 'dataId'), id, '0')
  if #fields > 0 then
    local data = dataOf(json)
    for _, field in ipairs(fields) do addField(P, field, data[field.name], id) end
  end
  return 1
end

-- The collection record. A put drops the indexes of fields no longer declared (or retyped) and
-- builds the indexes of new fields from the item hash; a delete drops everything but the
-- versions (the tombstones that keep replays harmless). It reads and drops whole keys, so the
-- buffered writes go out first and the cached item hash is forgotten after.
local function collectionRecordNow(P, version, json, position)
  local cur = redis.call('GET', versionKey(P))
  if cur and tonumber(cur) >= tonumber(version) then return 0 end
  redis.call('SET', versionKey(P), version)
  touchLastChange(P, position)
  local oldFields = fieldsOf(redis.call('GET', recordKey(P)))
  fieldsByPrefix[P] = nil
  if json == '' then
    redis.call('DEL', recordKey(P), itemsKey(P))
    for _, name in ipairs({'createdAt', 'updatedAt', 'dataId'}) do redis.call('DEL', sortedKey(P, name), missingKey(P, name)) end
    for _, field in ipairs(oldFields) do redis.call('DEL', sortedKey(P, field.name), missingKey(P, field.name)) end
    return 1
  end
  redis.call('SET', recordKey(P), json)
  local newFields = fieldsOf(json)
  local function has(list, field)
    for _, f in ipairs(list) do if f.name == field.name and f.type == field.type then return true end end
    return false
  end
  for _, field in ipairs(oldFields) do
    if not has(newFields, field) then redis.call('DEL', sortedKey(P, field.name), missingKey(P, field.name)) end
  end
  local added = {}
  for _, field in ipairs(newFields) do
    if not has(oldFields, field) then
      redis.call('DEL', sortedKey(P, field.name), missingKey(P, field.name))
      table.insert(added, field)
    end
  end
  if #added > 0 then
    local all = redis.call('HGETALL', itemsKey(P))
    for i = 1, #all, 2 do
      local data = dataOf(all[i + 1])
      for _, field in ipairs(added) do addField(P, field, data[field.name], all[i]) end
    end
  end
  return 1
end
local function collectionRecord(P, version, json, position)
  flushWrites()
  local changed = collectionRecordNow(P, version, json, position)
  forgetHash(itemsKey(P))
  return changed
end
`;

/**
 * A batch of writes, applied in order. KEYS[1] routes the call (a key of the batch's slot).
 * ARGV: lease key, lease value `"<token> <holder>"` ('' '' = unfenced), then entries, each a tag and its fields:
 * - `s` key, version key, version, json: a record in a string key (key by hash, plan);
 * - `h` hash, versions hash, field, version, json: a record in a hash field (collection and key lists);
 * - `t` item key, version key, version, json, history index, index member, position, trim, ttl:
 *   an item's record and its history index;
 * - `c` P, dataId, version, json, createdAt ms, updatedAt ms, position, entry, trim, ttl: an item's
 *   membership in its collection, the collection's lastChange and history entry;
 * - `i` the fields of `t`, then P, dataId, createdAt ms, updatedAt ms, entry: both halves of one
 *   item (one node only; the membership takes version, json, position, trim and ttl from `t`);
 * - `r` P, version, json, position: the collection record (and its lastChange).
 * json '' deletes; entry / member '' records no history. Returns one 0/1 (changed) per entry, or
 * -1 when the lease no longer holds that value, token and holder both (nothing written). On one
 * Redis node the writer passes its lease, so each call is refused once another holder took over;
 * on a cluster the lease lives in another slot and the writer passes '' (see docs/read-models.md).
 */
export const APPLY = `${WRITE_FUNCTIONS}
if ARGV[1] ~= '' and redis.call('GET', ARGV[1]) ~= ARGV[2] then return -1 end
-- The versions the item entries compare with, read ahead in one MGET and one HMGET per collection.
do
  local strKeys, fieldsOf = {}, {}
  local function field(key, f)
    local list = fieldsOf[key]
    if not list then list = {} fieldsOf[key] = list end
    list[#list + 1] = f
  end
  local size = { i = 15, t = 10, c = 11, s = 5, h = 6, r = 5 }
  local a = 3
  while a <= #ARGV and size[ARGV[a]] do
    local tag = ARGV[a]
    if tag == 'i' then
      strKeys[#strKeys + 1] = ARGV[a + 2]
      field(itemVersionsKey(ARGV[a + 10]), ARGV[a + 11])
    elseif tag == 't' then
      strKeys[#strKeys + 1] = ARGV[a + 2]
    elseif tag == 'c' then
      field(itemVersionsKey(ARGV[a + 1]), ARGV[a + 2])
    end
    a = a + size[tag]
  end
  readAhead(strKeys, fieldsOf)
end
local out = {}
local a = 3
while a <= #ARGV do
  local tag = ARGV[a]
  if tag == 'i' then
    local itemKey, itemVersion, version, json, index, member, position, trim, ttl, P, id, created, updated, entry = unpack(ARGV, a + 1, a + 14)
    local record = itemRecord(itemKey, itemVersion, version, json, index, member, position, trim, ttl)
    local membership = collectionItem(P, id, version, json, created, updated, position, entry, trim, ttl)
    out[#out + 1] = (record == 1 or membership == 1) and 1 or 0
    a = a + 15
  elseif tag == 't' then
    out[#out + 1] = itemRecord(unpack(ARGV, a + 1, a + 9))
    a = a + 10
  elseif tag == 'c' then
    out[#out + 1] = collectionItem(unpack(ARGV, a + 1, a + 10))
    a = a + 11
  elseif tag == 's' then
    out[#out + 1] = guardedSet(ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4])
    a = a + 5
  elseif tag == 'h' then
    out[#out + 1] = guardedHset(ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5])
    a = a + 6
  elseif tag == 'r' then
    out[#out + 1] = collectionRecord(ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4])
    a = a + 5
  else
    return redis.error_reply('APPLY: unknown entry ' .. tostring(tag))
  end
end
flushWrites()
return out
`;

/**
 * KEYS: lease, token sequence. ARGV: holder, ttl ms. Returns the new token or nil. The lease's value
 * is `"<token> <holder>"`, and every fenced call compares the whole of it. A token is the larger
 * of the last one issued + 1 and the server clock in µs (exact in a double until the year 2255), so
 * it never restarts below the tokens issued before Redis lost its data (docs/read-models.md, Fencing).
 */
export const LEASE_ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^%d+ (.*)$') ~= ARGV[1] then return false end
local now = redis.call('TIME')
local clock = tonumber(now[1]) * 1000000 + tonumber(now[2])
local token = math.max(tonumber(redis.call('GET', KEYS[2]) or '0') + 1, clock)
local text = string.format('%.0f', token)
redis.call('SET', KEYS[2], text)
redis.call('SET', KEYS[1], text .. ' ' .. ARGV[1], 'PX', ARGV[2])
return token
`;

/** KEYS: lease. ARGV: lease value `"<token> <holder>"`, ttl ms ('' releases). */
export const LEASE_RENEW = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

/** KEYS[1] = usage hash of a key. ARGV: count, ISO time, hour hash key, hour field, day hash key,
 * day field, month hash key, month field, hour TTL s. The bucket hashes share the key's hash tag. */
export const USAGE = `
redis.call('HINCRBY', KEYS[1], 'count', ARGV[1])
local last = redis.call('HGET', KEYS[1], 'last')
if not last or ARGV[2] > last then redis.call('HSET', KEYS[1], 'last', ARGV[2]) end
redis.call('HINCRBY', ARGV[3], ARGV[4], ARGV[1])
redis.call('EXPIRE', ARGV[3], ARGV[9])
redis.call('HINCRBY', ARGV[5], ARGV[6], ARGV[1])
redis.call('HINCRBY', ARGV[7], ARGV[8], ARGV[1])
return 1
`;
