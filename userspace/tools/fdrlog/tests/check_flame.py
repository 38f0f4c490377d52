#!/usr/bin/env python3
"""Check an SVG of `fdrlog flame`: well-formed XML (python's parser), no
style sheet or external reference, one inline script (the viewer's:
no src, no link out), and every frame as wide as its
time: width = (1200 - 2 * 10) * ns / total ns of "all", within 0.01 px,
children inside their caller and on top of it.  With EXPECT (lines
"name ns calls"), the frames must be exactly those, in drawing order.
usage: check_flame.py OUT.svg [EXPECT]"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def frames(root):
    out = []
    for g in root.iter(NS + "g"):
        if g.get("class") != "f":
            sys.exit("a <g> that is not a frame")
        title = g.find(NS + "title").text
        rect = g.find(NS + "rect")
        m = re.match(r"(.*) \((\d+) ns, (\d+) calls, [0-9.]+%\)$", title)
        if not m:
            sys.exit("title %r" % title)
        out.append((m.group(1), int(m.group(2)), int(m.group(3)),
                    float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))))
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    root = ET.fromstring(text)
    if root.tag != NS + "svg":
        sys.exit("root element %s" % root.tag)
    own = text.replace('xmlns="http://www.w3.org/2000/svg"', "", 1)
    for bad in ("<style", "href", "url(", "@import", "src=", "http:", "https:"):
        if bad in own:
            sys.exit("not self-contained: %s" % bad)
    scripts = list(root.iter(NS + "script"))
    if len(scripts) != 1 or not (scripts[0].text or "").strip():
        sys.exit("expected one inline script, found %d" % len(scripts))
    fr = frames(root)
    if not fr or fr[0][0] != "all" or abs(fr[0][5] - 1180) > 0.01:
        sys.exit("first frame must be 'all', 1180 px wide: %r" % (fr[:1],))
    total = fr[0][1]
    stack = []
    for name, ns, calls, x, y, w in fr:
        if abs(w - 1180.0 * ns / total) > 0.01:
            sys.exit("%s: width %.2f for %d of %d ns" % (name, w, ns, total))
        while stack and stack[-1][4] <= y:
            stack.pop()
        if stack:
            px, pw, py = stack[-1][3], stack[-1][5], stack[-1][4]
            if y != py - 16 or x < px - 0.01 or x + w > px + pw + 0.02:
                sys.exit("%s at x %.2f w %.2f y %g is not on top of its caller" % (name, x, w, y))
        stack.append((name, ns, calls, x, y, w))
    if len(sys.argv) > 2:
        got = ["%s %d %d" % f[:3] for f in fr]
        want = [l.strip() for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
        if got != want:
            sys.exit("frames %r, expected %r" % (got, want))


main()
