-- Shared Telegram rate limits, checked and taken in one step for every process.
-- KEYS[1] global window (zset), KEYS[2] chat bucket (hash), KEYS[3] group window (zset)
-- ARGV[1] is_group (0/1), ARGV[2] is_edit (0/1), ARGV[3] unique member id
-- ARGV[4] global per second, ARGV[5] chat per second, ARGV[6] chat burst,
-- ARGV[7] group per minute, ARGV[8] slack: windows are this fraction longer and the chat rate
-- this fraction slower than the limits, so that arrival jitter never makes Telegram count more
-- Returns the seconds to wait as a string ("0" when the message may go now).
local t = redis.call("TIME")
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local is_group, is_edit = ARGV[1] == "1", ARGV[2] == "1"
local wait = 0
local stretch = 1 + tonumber(ARGV[8])
local second, minute = stretch, 60 * stretch

redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now - second)
local global = redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[4]) then
  wait = math.max(wait, tonumber(global[2]) + second - now)
end

-- One token of the chat's burst is never used: it absorbs messages that reach Telegram closer
-- together than they were sent (a slow request followed by a quick one).
local rate, burst = tonumber(ARGV[5]) / stretch, math.max(1, tonumber(ARGV[6]) - 1)
local tokens = tonumber(redis.call("HGET", KEYS[2], "tokens") or burst)
local last = tonumber(redis.call("HGET", KEYS[2], "last") or now)
tokens = math.min(burst, tokens + (now - last) * rate)
if tokens < 1 then
  wait = math.max(wait, (1 - tokens) / rate)
end

if is_group and not is_edit then
  redis.call("ZREMRANGEBYSCORE", KEYS[3], "-inf", now - minute)
  if redis.call("ZCARD", KEYS[3]) >= tonumber(ARGV[7]) then
    local oldest = redis.call("ZRANGE", KEYS[3], 0, 0, "WITHSCORES")
    wait = math.max(wait, tonumber(oldest[2]) + minute - now)
  end
end

if wait > 0 then
  return tostring(wait)
end
redis.call("ZADD", KEYS[1], now, ARGV[3])
redis.call("EXPIRE", KEYS[1], math.ceil(second) + 1)
redis.call("HSET", KEYS[2], "tokens", tokens - 1, "last", now)
redis.call("EXPIRE", KEYS[2], 60)
if is_group and not is_edit then
  redis.call("ZADD", KEYS[3], now, ARGV[3])
  redis.call("EXPIRE", KEYS[3], math.ceil(minute) + 1)
end
return "0"
