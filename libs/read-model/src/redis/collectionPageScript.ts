import { COLLECTION_KEYS_LUA } from './redisKeys.js';

/**
 * One page: nil when the collection does not exist, else {total, lastChange, json...}: the page and
 * the collection's lastChange read at one instant (docs/read-models.md, Positions). KEYS[1] = recordKey(P).
 * ARGV: P, field, 'id' for built-in fields (members are dataIds) or 'field' (kind from the record), order, offset, limit.
 */
export const COLLECTION_PAGE = `${COLLECTION_KEYS_LUA}
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
local total = redis.call('HLEN', itemsKey(P))
local last = tonumber(redis.call('GET', lastChangeKey(P)) or '0')
local z, m = sortedKey(P, ARGV[2]), missingKey(P, ARGV[2])
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
local out = { total, last }
if #members == 0 then return out end
local ids = {}
for i, member in ipairs(members) do
  if kind == 'str' and string.find(member, '%z') then ids[i] = string.match(member, '%z([^%z]*)$') else ids[i] = member end
end
-- unpack() has a stack limit of a few thousand values: fetch in chunks.
for first = 1, #ids, 1000 do
  local values = redis.call('HMGET', itemsKey(P), unpack(ids, first, math.min(first + 999, #ids)))
  for i = 1, #values do out[first + i + 1] = values[i] end
end
return out
`;
