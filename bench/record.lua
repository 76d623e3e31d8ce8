-- wrk script for record_bench: thread i drives game i, alternating two single-action batches
-- (activate the hero's ability, then resolve it) so every request is legal in strict mode.
-- GAMES_FILE lines: "<path> <token> <body1> <body2>" (bodies are one-line JSON).
local games = {}
local counter = 0
for line in io.lines(os.getenv("GAMES_FILE")) do
  local path, token, b1, b2 = line:match("^(%S+) (%S+) (%S+) (%S+)$")
  table.insert(games, {path = path, token = token, b1 = b1, b2 = b2})
end
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("gid", counter)
  table.insert(threads, thread)
end

function init(args)
  game = games[((gid - 1) % #games) + 1]
  n = 0
  bad = 0
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. game.token
end

-- The next body flips only when a request succeeds (wrk may build a request it never sends).
function request()
  local body = (n % 2 == 0) and game.b1 or game.b2
  return wrk.format("POST", game.path, nil, body)
end

-- A 422 means this game is out of step (an activate already on the stack, or nothing to
-- resolve: a request still in flight when the previous run stopped was recorded after the
-- settle step); flip too, so one stray request cannot fail every request of a run. Any
-- non-201 is still counted and reported.
function response(status, headers, body)
  if status == 201 or status == 422 then n = n + 1 end
  if status ~= 201 then
    bad = bad + 1
    if bad <= 3 then io.stderr:write("non-201: " .. status .. " " .. body .. "\n") end
  end
end

function done(summary, latency, requests)
  local total_bad = 0
  for _, t in ipairs(threads) do total_bad = total_bad + (t:get("bad") or 0) end
  io.write(string.format("RESULT requests=%d seconds=%.3f non201=%d p50_ms=%.3f p99_ms=%.3f\n",
    summary.requests, summary.duration / 1e6, total_bad,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
