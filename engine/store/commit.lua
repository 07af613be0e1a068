-- Compare-and-set commit of one room, with everything that must change with it.
--
-- KEYS[1]   room hash (fields: ver, state)
-- KEYS[2..] the sets of applied update ids to look in (ARGV[11] of them; the first, today's,
--           is written), then player index keys (ARGV[7] of them), then stats hashes,
--           then the set of running games (when ARGV[13] is not ""), then the chat's outbox
--
-- ARGV[1] expected version ("-1": the room must not exist)
-- ARGV[2] new version
-- ARGV[3] new state JSON ("" deletes the room)
-- ARGV[4] room TTL in seconds ("0": keep forever)
-- ARGV[5] TTL in seconds of today's set of applied update ids ("0": no update id)
-- ARGV[6] index of the player key that must be free or ours ("0": none)
-- ARGV[7] number of player keys
-- ARGV[8] chat id
-- ARGV[9] player key TTL in seconds ("0": keep forever)
-- ARGV[10] number of outbox entries
-- ARGV[11] number of applied-update sets
-- ARGV[12] the update id
-- ARGV[13] "add" (a game starts), "rem" (a game ends) the chat to/from the running set, or ""
-- then one op per player key: "set" or "del"
-- then per stats key, its operations as JSON (engine/store/stats.py): "incr" {field: n}, "max"
-- and "min" {field: n}, "hset" {field: value}, "zadd" [score, member], "trim" (drop sorted-set members
-- scored below it), "expire" seconds
-- then the outbox entries, appended to the outbox list in order
--
-- Returns {1} on success, {-1} on a version conflict, {-2} for an update already applied,
-- {-3, chat} when the claimed player is seated in another game.

local sets = tonumber(ARGV[11])
if ARGV[5] ~= "0" then
  for i = 2, 1 + sets do
    if redis.call("SISMEMBER", KEYS[i], ARGV[12]) == 1 then
      return {-2}
    end
  end
end
local base = 1 + sets
local ver = redis.call("HGET", KEYS[1], "ver") or "-1"
if ver ~= ARGV[1] then
  return {-1}
end
local claim = tonumber(ARGV[6])
if claim > 0 then
  local holder = redis.call("GET", KEYS[base + claim])
  if holder and holder ~= ARGV[8] then
    return {-3, holder}
  end
end

if ARGV[3] == "" then
  redis.call("DEL", KEYS[1])
else
  redis.call("HSET", KEYS[1], "ver", ARGV[2], "state", ARGV[3])
  if ARGV[4] == "0" then
    redis.call("PERSIST", KEYS[1])
  else
    redis.call("EXPIRE", KEYS[1], ARGV[4])
  end
end
if ARGV[5] ~= "0" then
  redis.call("SADD", KEYS[2], ARGV[12])
  redis.call("EXPIRE", KEYS[2], ARGV[5])
end

local players = tonumber(ARGV[7])
local first_op = 14
for i = 1, players do
  local key = KEYS[base + i]
  local op = ARGV[first_op + i - 1]
  if op == "set" then
    if ARGV[9] == "0" then
      redis.call("SET", key, ARGV[8])
    else
      redis.call("SET", key, ARGV[8], "EX", ARGV[9])
    end
  elseif redis.call("GET", key) == ARGV[8] then
    redis.call("DEL", key)
  end
end

local first_stats = first_op + players
local outbox_key = #KEYS
local stats_end = outbox_key - 1
if ARGV[13] ~= "" then
  stats_end = outbox_key - 2
  if ARGV[13] == "add" then
    redis.call("SADD", KEYS[outbox_key - 1], ARGV[8])
  else
    redis.call("SREM", KEYS[outbox_key - 1], ARGV[8])
  end
end
for i = base + 1 + players, stats_end do
  local key = KEYS[i]
  local op = cjson.decode(ARGV[first_stats + i - base - 1 - players])
  for field, n in pairs(op.incr or {}) do
    redis.call("HINCRBY", key, field, n)
  end
  for field, n in pairs(op.max or {}) do
    local kept = tonumber(redis.call("HGET", key, field) or "")
    if kept == nil or n > kept then
      redis.call("HSET", key, field, n)
    end
  end
  for field, n in pairs(op.min or {}) do
    local kept = tonumber(redis.call("HGET", key, field) or "")
    if kept == nil or n < kept then
      redis.call("HSET", key, field, n)
    end
  end
  for field, value in pairs(op.hset or {}) do
    redis.call("HSET", key, field, value)
  end
  if op.zadd then
    redis.call("ZADD", key, op.zadd[1], op.zadd[2])
  end
  if op.trim then
    redis.call("ZREMRANGEBYSCORE", key, "-inf", "(" .. op.trim)
  end
  if op.expire then
    redis.call("EXPIRE", key, op.expire)
  end
end

local entries = tonumber(ARGV[10])
if entries > 0 then
  redis.call("RPUSH", KEYS[outbox_key], unpack(ARGV, #ARGV - entries + 1, #ARGV))
end
return {1}
