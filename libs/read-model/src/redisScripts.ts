/**
 * Lua scripts of the Redis read model. Each touches keys of ONE hash tag (one cluster slot):
 * KEYS[1] routes the script, further key names are built from a prefix in ARGV that carries the
 * same tag. Every write script is version-guarded so that running it twice changes nothing.
 */

// Every write script ends its ARGV with a lease key and token ('' '' = unfenced). On one Redis
// node the writer passes its lease, so each write is refused (-1) once another holder took over;
// on a cluster the lease lives in another slot and the writer passes '' (see docs/read-models.md).
const FENCE = `
local fenceKey, fenceToken = ARGV[#ARGV - 1], ARGV[#ARGV]
if fenceKey ~= '' then
  local lease = redis.call('GET', fenceKey)
  if not lease or string.match(lease, '^(%d+) ') ~= fenceToken then return -1 end
end
`;

/** A record in a string key with its version in a second key. ARGV: version, json ('' deletes). */
export const GUARDED_SET = `${FENCE}
local cur = redis.call('GET', KEYS[2])
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

/** A record in a hash field with its version in a second hash. ARGV: field, version, json ('' deletes). */
export const GUARDED_HSET = `${FENCE}
local cur = redis.call('HGET', KEYS[2], ARGV[1])
if cur and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
`;

// Shared by the collection-side scripts. Index keys under prefix P (which holds the {c:slug} tag):
// z:<field> sorted set of items with a value, m:<field> set (score 0) of items without one.
// Numbers: score = value, member = dataId (equal scores order by dataId). Strings: score 0,
// member = value with NUL escaped as NUL 0xFF, then NUL, then dataId: byte order of members is
// code point order of values, then dataId (0xFF never occurs in UTF-8, dataIds start with [A-Za-z0-9]).
const INDEX_FUNCTIONS = `
local P = ARGV[1]
local function strMember(value, id) return (string.gsub(value, '%z', '\\0\\255')) .. '\\0' .. id end
local function numArg(v) return string.format('%.17g', v) end
local function fieldsOf(json)
  if not json then return {} end
  local fields = cjson.decode(json).sortableFields
  if type(fields) ~= 'table' then return {} end
  return fields
end
local function addField(field, value, id)
  if field.type == 'number' and type(value) == 'number' then
    redis.call('ZADD', P .. 'z:' .. field.name, numArg(value), id)
  elseif field.type == 'string' and type(value) == 'string' then
    redis.call('ZADD', P .. 'z:' .. field.name, 0, strMember(value, id))
  else
    redis.call('ZADD', P .. 'm:' .. field.name, 0, id)
  end
end
local function removeField(field, value, id)
  if field.type == 'string' and type(value) == 'string' then
    redis.call('ZREM', P .. 'z:' .. field.name, strMember(value, id))
  else
    redis.call('ZREM', P .. 'z:' .. field.name, id)
  end
  redis.call('ZREM', P .. 'm:' .. field.name, id)
end
local function addTime(name, ms, id)
  if ms ~= '' then redis.call('ZADD', P .. 'z:' .. name, ms, id) else redis.call('ZADD', P .. 'm:' .. name, 0, id) end
end
local function dataOf(json)
  local data = cjson.decode(json).data
  if type(data) ~= 'table' then return {} end
  return data
end
`;

/**
 * An item's membership in its collection: the item hash, the sorted indexes, the versions.
 * KEYS[1] = P..'rec'. ARGV: P, dataId, version, json ('' deletes), createdAt ms, updatedAt ms
 * ('' when unparsable).
 */
export const COLLECTION_ITEM = `${FENCE}${INDEX_FUNCTIONS}
local id = ARGV[2]
local cur = redis.call('HGET', P .. 'ver', id)
if cur and tonumber(cur) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', P .. 'ver', id, ARGV[3])
local fields = fieldsOf(redis.call('GET', KEYS[1]))
local old = redis.call('HGET', P .. 'items', id)
if old then
  for _, name in ipairs({'createdAt', 'updatedAt', 'dataId'}) do
    redis.call('ZREM', P .. 'z:' .. name, id)
    redis.call('ZREM', P .. 'm:' .. name, id)
  end
  -- Only string members carry the value; the old JSON is decoded only when one is declared.
  local data = {}
  for _, field in ipairs(fields) do
    if field.type == 'string' then data = dataOf(old) break end
  end
  for _, field in ipairs(fields) do removeField(field, data[field.name], id) end
end
if ARGV[4] == '' then
  redis.call('HDEL', P .. 'items', id)
  return 1
end
redis.call('HSET', P .. 'items', id, ARGV[4])
addTime('createdAt', ARGV[5], id)
addTime('updatedAt', ARGV[6], id)
redis.call('ZADD', P .. 'z:dataId', 0, id)
local data = dataOf(ARGV[4])
for _, field in ipairs(fields) do addField(field, data[field.name], id) end
return 1
`;

/**
 * The collection record. A put drops the indexes of fields no longer declared (or retyped) and
 * builds the indexes of new fields from the item hash; a delete drops everything but the
 * versions (the tombstones that keep replays harmless). KEYS[1] = P..'rec'. ARGV: P, version,
 * json ('' deletes).
 */
export const COLLECTION_RECORD = `${FENCE}${INDEX_FUNCTIONS}
local cur = redis.call('GET', P .. 'v')
if cur and tonumber(cur) >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', P .. 'v', ARGV[2])
local oldFields = fieldsOf(redis.call('GET', KEYS[1]))
if ARGV[3] == '' then
  redis.call('DEL', KEYS[1], P .. 'items')
  for _, name in ipairs({'createdAt', 'updatedAt', 'dataId'}) do redis.call('DEL', P .. 'z:' .. name, P .. 'm:' .. name) end
  for _, field in ipairs(oldFields) do redis.call('DEL', P .. 'z:' .. field.name, P .. 'm:' .. field.name) end
  return 1
end
redis.call('SET', KEYS[1], ARGV[3])
local newFields = fieldsOf(ARGV[3])
local function has(list, field)
  for _, f in ipairs(list) do if f.name == field.name and f.type == field.type then return true end end
  return false
end
for _, field in ipairs(oldFields) do
  if not has(newFields, field) then redis.call('DEL', P .. 'z:' .. field.name, P .. 'm:' .. field.name) end
end
local added = {}
for _, field in ipairs(newFields) do
  if not has(oldFields, field) then
    redis.call('DEL', P .. 'z:' .. field.name, P .. 'm:' .. field.name)
    table.insert(added, field)
  end
end
if #added > 0 then
  local all = redis.call('HGETALL', P .. 'items')
  for i = 1, #all, 2 do
    local data = dataOf(all[i + 1])
    for _, field in ipairs(added) do addField(field, data[field.name], all[i]) end
  end
end
return 1
`;

/**
 * One page: nil when the collection does not exist, else {total, json...}. KEYS[1] = P..'rec'.
 * ARGV: P, field, 'id' for built-in fields (members are dataIds) or 'field' (kind from the record), order, offset, limit.
 */
export const COLLECTION_PAGE = `
local P = ARGV[1]
local rec = redis.call('GET', KEYS[1])
if not rec then return false end
local kind = ARGV[3]
if kind == 'field' then
  kind = nil
  local fields = cjson.decode(rec).sortableFields
  if type(fields) == 'table' then
    for _, f in ipairs(fields) do
      if f.name == ARGV[2] then kind = f.type == 'string' and 'str' or 'id' end
    end
  end
  if not kind then return { -1 } end
end
local total = redis.call('HLEN', P .. 'items')
local z, m = P .. 'z:' .. ARGV[2], P .. 'm:' .. ARGV[2]
local cmd = ARGV[4] == 'asc' and 'ZRANGE' or 'ZREVRANGE'
local offset, limit = tonumber(ARGV[5]), tonumber(ARGV[6])
local members = {}
if limit > 0 then
  local present = redis.call('ZCARD', z)
  if offset < present then
    for _, v in ipairs(redis.call(cmd, z, offset, math.min(offset + limit, present) - 1)) do table.insert(members, v) end
  end
  local rest = limit - #members
  if rest > 0 then
    local from = math.max(0, offset - present)
    for _, v in ipairs(redis.call(cmd, m, from, from + rest - 1)) do table.insert(members, v) end
  end
end
local out = { total }
if #members == 0 then return out end
local ids = {}
for i, member in ipairs(members) do
  if kind == 'str' and string.find(member, '%z') then ids[i] = string.match(member, '%z([^%z]*)$') else ids[i] = member end
end
-- unpack() has a stack limit of a few thousand values: fetch in chunks.
for first = 1, #ids, 1000 do
  local values = redis.call('HMGET', P .. 'items', unpack(ids, first, math.min(first + 999, #ids)))
  for i = 1, #values do out[first + i] = values[i] end
end
return out
`;

/** The checkpoint never moves back; with a lease it is written only by the current holder.
 * KEYS[1] = checkpoint hash. ARGV: projection, position, lease key ('' = none), token. */
export const CHECKPOINT = `
if ARGV[3] ~= '' then
  local lease = redis.call('GET', ARGV[3])
  if not lease or string.match(lease, '^(%d+) ') ~= ARGV[4] then return -1 end
end
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur or tonumber(cur) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1
`;

/** KEYS: lease, token sequence. ARGV: holder, ttl ms. Returns the new token or nil. */
export const LEASE_ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^%d+ (.*)$') ~= ARGV[1] then return false end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token .. ' ' .. ARGV[1], 'PX', ARGV[2])
return token
`;

/** KEYS: lease. ARGV: token, ttl ms ('' releases). */
export const LEASE_RENEW = `
local cur = redis.call('GET', KEYS[1])
if not cur or string.match(cur, '^(%d+) ') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

/** KEYS[1] = usage hash of a key. ARGV: count, ISO time, hour hash key, hour field, day field,
 * month field, hour TTL s. The hour hash, day and month hashes share the key's hash tag. */
export const USAGE = `
redis.call('HINCRBY', KEYS[1], 'count', ARGV[1])
local last = redis.call('HGET', KEYS[1], 'last')
if not last or ARGV[2] > last then redis.call('HSET', KEYS[1], 'last', ARGV[2]) end
redis.call('HINCRBY', ARGV[3], ARGV[4], ARGV[1])
redis.call('EXPIRE', ARGV[3], ARGV[7])
redis.call('HINCRBY', KEYS[1] .. ':d', ARGV[5], ARGV[1])
redis.call('HINCRBY', KEYS[1] .. ':mo', ARGV[6], ARGV[1])
return 1
`;
