// The Lua scripts of RedisTaskStore. Each touches the keys of one owner (one hash tag, so one slot
// of a Redis Cluster) or the expiry index (a slot of its own), and runs atomically. Times come from
// the store's clock as arguments: the store decides what has expired, Redis only frees keys.
// Large numbers are formatted with %.0f: Lua's own tostring keeps 14 digits. Redis frees a key a
// minute after the store's clock says it expired: the clocks of the processes sharing it may differ,
// and a key freed early would end a task before its time.
import { RedisScript } from "./redis-commands.js";

/** Frees an owner's tasks that expired by `now`; keeps its indexes as long as its last task. */
const OWNER = `
local function sweep(seq, exp, base, now)
  local gone = redis.call('ZRANGEBYSCORE', exp, '-inf', now)
  for _, id in ipairs(gone) do
    redis.call('DEL', base .. id)
    redis.call('ZREM', seq, id)
    redis.call('ZREM', exp, id)
  end
  return #gone
end
local function expireAt(key, at, now)
  if at == 'inf' then
    redis.call('PERSIST', key)
  else
    redis.call('PEXPIRE', key, string.format('%.0f', math.max(1, tonumber(at) - now) + 60000))
  end
end
local function keep(seq, exp, now)
  local last = redis.call('ZRANGE', exp, -1, -1, 'WITHSCORES')
  if #last == 0 then return end
  expireAt(seq, last[2], now)
  expireAt(exp, last[2], now)
end
`;

/**
 * KEYS: seq, exp, record. ARGV: record key base, now, limit, task id, json, expiresAt ('inf' or ms).
 * → {1} when stored; {0, earliest expiry} at the limit. The creation place is Redis's time in
 * microseconds, or one more than the owner's last: it only grows, even once the owner's keys expired.
 */
export const CREATE = /* @__PURE__ */ new RedisScript(`${OWNER}
local seq, exp, rec = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[2])
sweep(seq, exp, ARGV[1], ARGV[2])
if redis.call('ZCARD', exp) >= tonumber(ARGV[3]) then
  local first = redis.call('ZRANGE', exp, 0, 0, 'WITHSCORES')
  return {0, first[2]}
end
local time = redis.call('TIME')
local place = tonumber(time[1]) * 1000000 + tonumber(time[2])
local last = redis.call('ZRANGE', seq, -1, -1, 'WITHSCORES')
if #last > 0 then place = math.max(place, tonumber(last[2]) + 1) end
redis.call('HSET', rec, 'version', '1', 'json', ARGV[5])
expireAt(rec, ARGV[6], now)
redis.call('ZADD', seq, string.format('%.0f', place), ARGV[4])
redis.call('ZADD', exp, ARGV[6] == 'inf' and '+inf' or ARGV[6], ARGV[4])
keep(seq, exp, now)
return {1}
`);

/**
 * KEYS: record, seq, exp. ARGV: version read, json, expiresAt, now, task id.
 * → 1 when written; 0 when the record is no longer at the version read (the caller reads again).
 */
export const UPDATE = /* @__PURE__ */ new RedisScript(`${OWNER}
local rec, seq, exp = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[4])
if redis.call('HGET', rec, 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', rec, 'version', tostring(tonumber(ARGV[1]) + 1), 'json', ARGV[2])
expireAt(rec, ARGV[3], now)
redis.call('ZADD', exp, ARGV[3] == 'inf' and '+inf' or ARGV[3], ARGV[5])
keep(seq, exp, now)
return 1
`);

/**
 * KEYS: seq, exp. ARGV: record key base, now, after (a creation place, or '' for the start), count.
 * → {place, json, ...}: at most `count` live tasks after `after`, in creation order. An id whose
 * record Redis already freed (its key's own expiry) leaves the indexes.
 */
export const LIST = /* @__PURE__ */ new RedisScript(`${OWNER}
local seq, exp, base = KEYS[1], KEYS[2], ARGV[1]
sweep(seq, exp, base, ARGV[2])
local count = tonumber(ARGV[4])
local from = ARGV[3] == '' and '-inf' or '(' .. ARGV[3]
local out = {}
while true do
  local page = redis.call('ZRANGEBYSCORE', seq, from, '+inf', 'WITHSCORES', 'LIMIT', 0, count)
  if #page == 0 then return out end
  for i = 1, #page, 2 do
    local json = redis.call('HGET', base .. page[i], 'json')
    if json then
      out[#out + 1] = page[i + 1]
      out[#out + 1] = json
      if #out == 2 * count then return out end
    else
      redis.call('ZREM', seq, page[i])
      redis.call('ZREM', exp, page[i])
    end
    from = '(' .. page[i + 1]
  end
end
`);

/**
 * KEYS: seq, exp. ARGV: record key base, now, task ids. → {freed, id, expiry, ...}: how many of the
 * owner's tasks it freed, then each given id still held with its expiry ('inf' when it has none).
 */
export const SWEEP = /* @__PURE__ */ new RedisScript(`${OWNER}
local freed = sweep(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
local out = {freed}
for i = 3, #ARGV do
  local at = redis.call('ZSCORE', KEYS[2], ARGV[i])
  if at then
    out[#out + 1] = ARGV[i]
    out[#out + 1] = at
  end
end
return out
`);

/** KEYS: the expiry index. ARGV: now, then expiry and member pairs. Kept as long as its last entry. */
export const INDEX = /* @__PURE__ */ new RedisScript(`
for i = 2, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(1, tonumber(last[2]) - tonumber(ARGV[1])) + 60000))
return 1
`);
