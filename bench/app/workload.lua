-- workload.lua ROUNDS: the application benchmark's fixed input (bench/app),
-- about 0.95 million calls of the interpreter's C functions per round
-- (ROUNDS default 12: over 11 million): recursion, closures, string
-- building and matching, table sort with a Lua comparator, gsub with a Lua
-- callback, pcall/error (a longjmp over the interpreter's frames) and
-- coroutines.  The same calls on every run (build-lua.sh fixes the
-- string-hash seed); prints one checksum line.
local rounds = tonumber(arg[1]) or 12

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end

local function round()
  local acc = 0
  for _ = 1, 20 do acc = acc + fib(15) end

  local parts = {}
  for i = 1, 2000 do parts[#parts + 1] = string.format("%d:%s", i, string.rep("ab", i % 5)) end
  local s = table.concat(parts, ",")
  local n = 0
  for w in s:gmatch("[^,]+") do n = n + #w:upper() end

  local t = {}
  for i = 1, 3000 do t[i] = (i * 7919) % 3001 end
  table.sort(t, function(a, b) return a > b end)

  local g = s:gsub("ab", function() return "ba" end)

  local errs = 0
  for i = 1, 2000 do
    if not pcall(function(x) if x % 3 == 0 then error("bad " .. x) end return x end, i) then
      errs = errs + 1
    end
  end

  local co = coroutine.wrap(function() for i = 1, 500 do coroutine.yield(i) end end)
  local ysum = 0
  for _ = 1, 500 do ysum = ysum + co() end
  return acc + n + t[1] + #g + errs + ysum
end

local sum = 0
for _ = 1, rounds do sum = sum + round() end
print(rounds, sum)
