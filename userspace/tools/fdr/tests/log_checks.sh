# SPDX-License-Identifier: MIT
# log_checks.sh - checks of a recorded log shared by the library-call and
# -P tests; sourced, with $FDR set to the fdr binary.

# "name=count ..." of the Enter records of every process in DIR's log,
# named by the raw (not demangled) names of DIR's sym-maps
fdr_counts() {
	"$FDR" convert --format yaml --no-sort "$1" | python3 -c '
import collections, glob, re, sys
names = {}
for f in glob.glob(sys.argv[1] + "/fdr-syms.*.map"):
    for line in open(f):
        if not line.startswith("#"):
            p = line.split("\t")
            names[p[0]] = p[1]
c = collections.Counter(names.get(m.group(1), "#" + m.group(1)) for m in
        (re.search(r"func-id: (\d+),.*kind: function-enter", l) for l in sys.stdin) if m)
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$1"
}
# Every Exit (or an XRay tail exit) of a thread closes the newest open
# Enter of the same function
# (what llvm-xray and fdr replay need), whatever a longjmp skipped; only
# a fork child starts with the Exit of the fork its parent entered.
nested() { # DIR
	"$FDR" convert --format yaml --no-sort "$1" | python3 -c '
import re, sys
stacks, entered = {}, set()
for line in sys.stdin:
    m = re.search(r"func-id: (\d+),.*thread: (\d+),.*kind: function-(enter|exit|tail-exit)", line)
    if not m:
        continue
    st = stacks.setdefault(m.group(2), [])
    if m.group(3) == "enter":
        st.append(m.group(1))
        entered.add(m.group(2))
    elif not st and m.group(2) not in entered:
        continue
    elif not st or st.pop() != m.group(1):
        sys.exit("thread %s: an exit of %s does not close the newest entry" % (m.group(2), m.group(1)))
'
}
