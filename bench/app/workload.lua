-- workload.lua ROUNDS FILE: the application benchmark's fixed input
-- (bench/app): FILE, the real-program test's workload
-- (tests/realprog/workload.lua: recursion, closures, strings, table sort
-- with a Lua comparator, gsub with a Lua callback, pcall/error,
-- coroutines; about a million calls of the interpreter's C functions),
-- run ROUNDS times (default 12) in one interpreter.
local rounds = tonumber(arg[1]) or 12
local file = assert(arg[2], "usage: workload.lua ROUNDS FILE")
local chunk = assert(loadfile(file))
for _ = 1, rounds do chunk() end
