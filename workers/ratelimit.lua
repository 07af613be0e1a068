-- Shared Telegram rate limits, checked and taken in one step for every process.
-- KEYS[1] global window (zset), KEYS[2] chat bucket (hash), KEYS[3] group window (zset),
-- KEYS[4] groups with an appointment at the global limit (zset: chat → when), KEYS[5] private
-- chats waiting for a slot there (zset: chat → when told to come back)
-- ARGV[1] is_group (0/1), ARGV[2] is_edit (0/1), ARGV[3] unique member id
-- ARGV[4] global per second, ARGV[5] chat per second, ARGV[6] chat burst,
-- ARGV[7] group per minute, ARGV[8] slack: the group's window is this fraction longer and the
-- chat rate this fraction slower than the limits, so that arrival jitter never makes Telegram
-- count more
-- ARGV[9] the chat, ARGV[10] how long an appointment nobody came for is kept, ARGV[11] the
-- global window in seconds (its slots count from when the call was answered: no slack),
-- ARGV[12] how long after it was told to come back a private chat waiting for a slot keeps
-- the groups from free ones
-- KEYS[6] the slots claimed by groups whose turn came (zset: chat → when its slot comes free)
-- ARGV[13] the longest wait a job sleeps through (a group told to wait no longer claims its
-- slot), ARGV[14] how long after its slot came free a claim nobody came for is given up,
-- ARGV[15] how much earlier than its slot a group told to wait longer is told to come back
-- KEYS[7] the room of each group with an appointment (hash: chat → the room whose delivery
-- booked it), ARGV[16] the caller's room (its chat when empty), ARGV[17] whether the caller
-- delivers for another group (1/0): a free slot it cannot have is handed to the group that
-- has waited longest
-- Returns the seconds to wait as a string ("0" when the message may go now), followed, when
-- the free slot was handed over, by a space and the room to deliver for.
--
-- Turns at the global limit: a group chat that finds every slot taken, or others waiting for
-- one, gets an appointment (KEYS[4], chat → when) after the latest one outstanding, one
-- slot's share of a second (`second` / the limit) apart, and is told to come back then; at or
-- after it, it takes the next free slot. So groups go round in the order they came, however
-- long their backlogs, and come back one at a time at the rate slots come free rather than
-- all at once. A group whose turn came and found no free slot is given its own: the first to
-- come free after those claimed already. A wait short enough to be slept through claims it
-- (KEYS[6]): nobody else takes it while its job sleeps. A longer one is not held for a job
-- that comes back through the queue (a slot kept empty for a late job is lost to the rate):
-- it is told to come back a little before its slot, to claim it then. So a group sent back
-- by a full window is not sent back again and again by the jobs that happen to come first.
-- Handing over: a free slot goes to the group that has waited longest, not to whichever job
-- asks first. When a caller that can deliver for others (ARGV[17]) finds a free slot (one it
-- claimed included) while an appointment older than its own (any, if it has none) is due,
-- the slot is claimed for the oldest due group that holds no claim, and the caller is told to
-- deliver that group's room itself, now: nobody waits for that group's job to come through
-- the queue, no slot is kept empty for it, and a job that is there does not go ahead of an
-- older turn whose job is late.
-- A private chat takes a free slot at once; when none is free, no group takes
-- the next ones until it had its (or a while passed): it goes before every group. An
-- appointment nobody came for (its job lost) is dropped after a while.
local t = redis.call("TIME")
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local is_group, is_edit = ARGV[1] == "1", ARGV[2] == "1"
local wait = 0
local stretch = 1 + tonumber(ARGV[8])
local second, minute = tonumber(ARGV[11]), 60 * stretch
local cap = tonumber(ARGV[4])
local chat = ARGV[9]

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
  -- Its own limits hold the chat back: it takes no slot meanwhile, gives up a claimed one (of
  -- no use to it) and its appointment, if any, is not due before it may send (else the slots
  -- would be handed to it again and again, for nothing).
  if is_group then
    redis.call("ZREM", KEYS[6], chat)
    redis.call("ZADD", KEYS[4], "XX", "GT", now + wait, chat)
  end
  return tostring(wait)
end

redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now - second)
redis.call("ZREMRANGEBYSCORE", KEYS[4], "-inf", now - tonumber(ARGV[10]))
redis.call("ZREMRANGEBYSCORE", KEYS[5], "-inf", now - tonumber(ARGV[12]))
redis.call("ZREMRANGEBYSCORE", KEYS[6], "-inf", now - tonumber(ARGV[14]))
local booked = is_group and redis.call("ZSCORE", KEYS[4], chat)
booked = booked and tonumber(booked)
local private_waits = is_group and redis.call("ZCARD", KEYS[5]) > 0
local used = redis.call("ZCARD", KEYS[1])
local free = used < cap
local step = second / cap
-- When a slot comes free next (now, if one is free).
local slot = now
if not free then
  slot = tonumber(redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")[2]) + second
end
-- Slots claimed by other groups: come free already (kept for the claimer) and all of them.
local claimed_now, claimed = 0, 0
if is_group then
  claimed = redis.call("ZCARD", KEYS[6])
  claimed_now = redis.call("ZCOUNT", KEYS[6], "-inf", now)
  local own = redis.call("ZSCORE", KEYS[6], chat)
  if own then
    claimed = claimed - 1
    if tonumber(own) <= now then claimed_now = claimed_now - 1 end
  end
end
local unclaimed = used + claimed_now < cap

-- The group a free slot is handed to: the oldest due appointment without a claim (a group
-- with one has its slot already), unless the caller's own comes first. A slot the caller
-- claimed is handed over too: a claim keeps a slot for a job that is there when it comes
-- free, not for its group ahead of older ones.
local hand_to = nil
if is_group and ARGV[17] == "1" and unclaimed and not private_waits then
  local due = redis.call("ZRANGEBYSCORE", KEYS[4], "-inf", now, "LIMIT", 0, 32)
  for _, other in ipairs(due) do
    if other == chat then break end
    if not redis.call("ZSCORE", KEYS[6], other) then
      hand_to = other
      break
    end
  end
end

local go = false
if private_waits or hand_to then
  go = false  -- a private chat waits for the next free slot: it is its; or handed over
elseif booked then
  go = booked <= now and unclaimed  -- its turn came: the first free slot is its
elseif unclaimed then
  -- Without an appointment: a private chat goes at once; a group only when no appointment
  -- is due within a slot's share of a second (else it would take that one's slot).
  local first = redis.call("ZRANGE", KEYS[4], 0, 0, "WITHSCORES")
  go = not is_group or #first == 0 or tonumber(first[2]) > now + step
end

if go then
  redis.call("ZADD", KEYS[1], now, ARGV[3])
  redis.call("EXPIRE", KEYS[1], math.ceil(second) + 1)
  redis.call("HSET", KEYS[2], "tokens", tokens - 1, "last", now)
  redis.call("EXPIRE", KEYS[2], 60)
  if is_group and not is_edit then
    redis.call("ZADD", KEYS[3], now, ARGV[3])
    redis.call("EXPIRE", KEYS[3], math.ceil(minute) + 1)
  end
  if booked then
    redis.call("ZREM", KEYS[4], chat)
    redis.call("HDEL", KEYS[7], chat)
  end
  if is_group then redis.call("ZREM", KEYS[6], chat) end
  if not is_group then redis.call("ZREM", KEYS[5], chat) end
  return "0"
end

if not is_group then
  -- Noted with when it is told to come back: it holds the groups back until a while after.
  redis.call("ZADD", KEYS[5], slot, chat)
  redis.call("EXPIRE", KEYS[5], 3600)
  return tostring(math.max(slot - now, 0.001))
end

if not booked then
  local latest = redis.call("ZRANGE", KEYS[4], -1, -1, "WITHSCORES")
  booked = #latest == 0 and slot or math.max(slot, tonumber(latest[2]) + step)
  redis.call("ZADD", KEYS[4], booked, chat)
  redis.call("EXPIRE", KEYS[4], 3600)
end
redis.call("HSET", KEYS[7], chat, ARGV[16] ~= "" and ARGV[16] or chat)
redis.call("EXPIRE", KEYS[7], 3600)
if hand_to then
  -- The free slot is the oldest waiting group's, claimed for it as for a job that sleeps
  -- till then; the caller delivers its room now, and comes back to its own turn.
  local own = redis.call("ZSCORE", KEYS[6], chat)
  if own and tonumber(own) <= now then redis.call("ZREM", KEYS[6], chat) end
  redis.call("ZADD", KEYS[6], now, hand_to)
  redis.call("EXPIRE", KEYS[6], 60)
  local room = redis.call("HGET", KEYS[7], hand_to) or hand_to
  return tostring(math.max(booked - now, 0.001)) .. " " .. room
end
if booked <= now and not private_waits then
  -- Its turn came: its slot is the first to come free after the others claimed.
  local k = used + claimed - cap
  local at = now
  if k >= 0 and k < used then
    at = tonumber(redis.call("ZRANGE", KEYS[1], k, k, "WITHSCORES")[2]) + second
  elseif k >= used then  -- beyond the window: a slot's share of a second apart
    local last = used > 0 and tonumber(redis.call("ZRANGE", KEYS[1], -1, -1, "WITHSCORES")[2])
    at = (last and last + second or now) + (k - used + 1) * step
  end
  at = math.max(at, now + 0.001)
  if at - now <= tonumber(ARGV[13]) then
    redis.call("ZADD", KEYS[6], at, chat)
    redis.call("EXPIRE", KEYS[6], 60)
    return tostring(at - now)
  end
  redis.call("ZREM", KEYS[6], chat)
  -- Not slept through: back a little early (its job may come late), to claim it then; never
  -- so early that the wait would be slept through.
  local early = math.max(at - now - tonumber(ARGV[15]), tonumber(ARGV[13]) + 0.01)
  return tostring(math.min(at - now, early))
end
-- (Kept from a free slot by a private chat: it comes back when that one should have had it.)
return tostring(math.max(booked, slot, now + (private_waits and step or 0.001)) - now)
