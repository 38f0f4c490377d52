#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tramp_regs.py SO: fdr__patch_entry and fdr__patch_return (the -P
trampolines, patch_tramp_x86_64.S) keep no vector register, so nothing
they run before fdr__vstate_call may touch one: every instruction
reachable from them in the linked SO (the C they call, its inline fast
path, errno, the shadow stack, what it calls in libc) is checked, not
only plt_shadow.o (hook_regs.sh).  The walk follows every direct call
and jump into another function and stops at fdr__vstate_call, which
keeps every vector register (vstate_call.h).  TAP on stdout."""
import re
import bisect
import subprocess
import sys

ROOTS = ("fdr__patch_entry", "fdr__patch_return")
STOP = ("fdr__vstate_call", "fdr__vstate_call_ptr")
# Registers and instructions that read or write vector, mask or x87 state
VECTOR = re.compile(r"%[xyz]mm[0-9]|%k[0-7]\b|%st\b|%st\(|\b(vzero\w*|f?xrstor\w*|frstor|"
                    r"ldmxcsr|emms|fninit|fldcw)\b")
DIRECT = re.compile(r"\b(call|jmp|j[a-z]{1,3})\s+([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>")
INDIRECT = re.compile(r"\b(call|jmp)\s+\*")
# Libc's, called through the PLT: a system call that keeps every vector
# register (checked below); write and abort only where nothing returns
SYSCALLS = {"sigaltstack"}
NORETURN_ONLY = {"write", "abort"}


class Funcs(dict):
    """name -> instructions, and the functions' start addresses, by which a
    branch's target is named (objdump may name it after a TLS symbol whose
    offset happens to be near, as libfdr's ctl_strerror.c `msg`)"""

    def __init__(self):
        super().__init__()
        self.starts = []

    def owner(self, addr):
        i = bisect.bisect_right(self.starts, (addr, "\uffff")) - 1
        return self.starts[i][1] if i >= 0 else None


def disassemble(args):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn"] + args,
                         capture_output=True, text=True, check=True).stdout
    funcs, cur = Funcs(), None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            funcs.starts.append((int(m.group(1), 16), m.group(2)))
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)
        if m and cur is not None:
            cur.append(m.group(1))
    return funcs


def never_returns(body):
    """calls abort and has no ret: what it leaves in registers does not matter"""
    return (not any(re.match(r"(\w+\s+)?ret", i) for i in body) and
            any(DIRECT.search(i) and DIRECT.search(i).group(3) == "abort@plt" for i in body))


def walk(funcs, roots, stop):
    """(functions reached, [vector uses], [other problems], stop reached)"""
    seen, todo, vec, other, reached_stop = set(), list(roots), [], [], False
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        if f not in funcs:
            other.append("%s: not in the disassembly" % f)
            continue
        for ins in funcs[f]:
            if VECTOR.search(ins):
                vec.append("%s: %s" % (f, ins))
            if INDIRECT.search(ins) and f not in roots:
                other.append("%s: an indirect branch the walk cannot follow: %s" % (f, ins))
            m = DIRECT.search(ins)
            to = m and (funcs.owner(int(m.group(2), 16)) or m.group(3))
            if not m or to == f:
                continue
            if to in stop:
                reached_stop = True
            elif to.endswith("@plt"):
                name = to[:-4]
                if not (name in SYSCALLS or
                        (name in NORETURN_ONLY and never_returns(funcs[f]))):
                    other.append("%s: calls %s" % (f, to))
            else:
                todo.append(to)
    return seen, vec, other, reached_stop


def libc_of(so):
    out = subprocess.run(["ldd", so], capture_output=True, text=True).stdout
    m = re.search(r"libc\.so\.6 => (\S+)", out)
    return m.group(1) if m else None


def libc_function(libc, name):
    """the instructions of libc's NAME, by its dynamic symbol's address and size"""
    out = subprocess.run(["objdump", "-T", libc], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 7 and f[-1] == name and any("F" in x for x in f[1:4]):
            lo, size = int(f[0], 16), int(f[-3], 16)
            body = disassemble(["--start-address=%#x" % lo, "--stop-address=%#x" % (lo + size),
                                libc])
            return [i for b in body.values() for i in b]
    return None


class Tap:
    def __init__(self):
        self.n, self.fail = 0, 0

    def check(self, good, what, notes=()):
        self.n += 1
        print("%s %d - %s" % ("ok" if good else "not ok", self.n, what))
        for note in list(notes)[:20]:
            print("# " + note)
        self.fail |= not good


def main():
    so = sys.argv[1]
    t = Tap()
    funcs = disassemble([so])
    funcs.starts.sort()
    seen, vec, other, stop = walk(funcs, ROOTS, STOP)
    t.check(not vec and len(seen) > len(ROOTS),
            "%d functions reachable from %s before %s use no vector, mask or x87 register"
            % (len(seen), " and ".join(ROOTS), STOP[0]), vec or ["reached: " + " ".join(sorted(seen))])
    t.check(not other and stop,
            "they call no other code that may (libc's %s only; %s only where nothing returns), "
            "and the recorder's general path through %s"
            % (", ".join(sorted(SYSCALLS)), " and ".join(sorted(NORETURN_ONLY)), " or ".join(STOP)),
            other + ([] if stop else ["%s is not called" % STOP[0]]))
    libc = libc_of(so)
    for name in sorted(SYSCALLS):
        body = libc_function(libc, name) if libc else None
        bad = [i for i in body or [] if VECTOR.search(i) or re.search(r"\bcall\b", i)]
        t.check(bool(body) and not bad,
                "%s's %s calls nothing and uses no vector register" % (libc, name), bad)
    # The checks can fail: the library-call trampoline keeps xmm0-7 itself,
    # and fdr__vstate_call moves every vector register.
    t.check(bool(walk(funcs, ("fdr__plt_entry",), STOP)[1]),
            "control: the same walk from fdr__plt_entry finds its xmm saves")
    t.check(bool(walk(funcs, ROOTS, ())[1]),
            "control: the same walk, not stopping at %s, finds its vector registers" % STOP[0])
    print("1..%d" % t.n)
    return t.fail


if __name__ == "__main__":
    sys.exit(main())
