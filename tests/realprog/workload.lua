-- workload.lua: the fixed Lua program the real-program test runs (about
-- one million calls of the interpreter's C functions, well under a second
-- uninstrumented): recursion, closures, pcall/error (Lua's errors are a
-- longjmp over the interpreter's frames), string operations, table sort
-- with a Lua comparator, gsub with a Lua callback, coroutines.
-- Deterministic: the same calls on every run (the test builds Lua with a
-- fixed string-hash seed).
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end

local function counter()
  local c = 0
  return function(k) c = c + k; return c end
end

local acc = 0
for _ = 1, 20 do acc = acc + fib(15) end

local inc = counter()
for i = 1, 2000 do inc(i) end

local errs = 0
for i = 1, 2000 do
  local ok = pcall(function(x) if x % 3 == 0 then error("bad " .. x) end return x end, i)
  if not ok then errs = errs + 1 end
end

local parts = {}
for i = 1, 2000 do parts[#parts + 1] = string.format("%d:%s", i, string.rep("ab", i % 5)) end
local s = table.concat(parts, ",")
local n = 0
for w in s:gmatch("[^,]+") do n = n + #w:upper() end

local t = {}
for i = 1, 3000 do t[i] = (i * 7919) % 3001 end
table.sort(t, function(a, b) return a > b end)

local g = s:gsub("ab", function() return "ba" end)

local co = coroutine.wrap(function()
  for i = 1, 500 do coroutine.yield(i) end
end)
local ysum = 0
for _ = 1, 500 do ysum = ysum + co() end

print(acc, inc(0), errs, n, t[1], #g, ysum)
