#!/usr/bin/env python3
"""Drive a flame graph of `fdrlog flame` in headless Chromium, through
chromedriver's WebDriver protocol (plain HTTP and JSON, no client library):
the frames are drawn, a click zooms (the frame full width, its callees
scaled with it, its callers faded, the rest hidden), Reset Zoom restores
every frame, a search (typed into the browser's own prompt) highlights
the matching frames and gives the share they cover, hovering a frame
names it on the details line.  What the browser shows is checked against
the frames of the file itself.  Prints TAP; keeps a screenshot of the
zoomed, searched graph in WORK/flame-browser.png.
usage: browser_flame.py OUT.svg WORK"""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"	# W3C WebDriver's element key
HIGHLIGHT = "rgb(230,0,230)"
WAIT = 120	# seconds: chromium starts slowly on a loaded host

count = failed = 0


def tap(good, what):
    global count, failed
    count += 1
    if not good:
        failed += 1
    print("%s %d %s" % ("ok" if good else "not ok", count, what), flush=True)
    return good


def file_frames(path):
    """(name, x, width, y, fill) of every frame, in drawing order."""
    out = []
    for g in ET.parse(path).getroot().iter(NS + "g"):
        title = g.find(NS + "title").text
        r = g.find(NS + "rect")
        out.append((title[:title.rindex(" (")], float(r.get("x")), float(r.get("width")),
                    float(r.get("y")), r.get("fill")))
    return out


class Driver:
    def __init__(self, work):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.log = open(os.path.join(work, "chromedriver.log"), "w")
        self.proc = subprocess.Popen(["chromedriver", "--port=%d" % self.port],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.base = "http://127.0.0.1:%d" % self.port
        self.sid = None
        deadline = time.monotonic() + WAIT
        while True:
            try:
                if self.call("GET", "/status")["ready"]:
                    break
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromedriver did not start (see chromedriver.log)")
            time.sleep(0.2)
        caps = {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1300,700", "--user-data-dir=" + os.path.join(work, "profile")]}}
        self.sid = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=WAIT) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError("%s %s: %s" % (method, path, e.read()[:300])) from None

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, element):
        self.s("POST", "/element/%s/click" % element[ELEMENT], {})

    def quit(self):
        try:
            if self.sid:
                self.s("DELETE", "")
        finally:
            self.proc.terminate()
            self.proc.wait(30)


STATE = """return Array.from(document.querySelectorAll('g.f')).map(function (g) {
  var r = g.querySelector('rect');
  return [parseFloat(r.getAttribute('x')), parseFloat(r.getAttribute('width')),
          getComputedStyle(g).display != 'none', g.style.opacity || '1',
          r.getAttribute('fill'), g.querySelector('text').textContent];
});"""
RECT = "return document.querySelectorAll('g.f')[arguments[0]].querySelector('rect');"


def near(a, b):
    return abs(a - b) <= 0.02


def inside(f, z):
    return f[1] >= z[1] - 0.01 and f[1] + f[2] <= z[1] + z[2] + 0.01


def check_zoom(d, frames, zi):
    """Click frame zi: what must the graph look like?"""
    z = frames[zi]
    d.click(d.js(RECT, zi))
    got = d.js(STATE)
    scale = 1180.0 / z[2]
    bad = []
    for i, (f, g) in enumerate(zip(frames, got)):
        x, w, shown, opacity = g[0], g[1], g[2], g[3]
        if f[3] > z[3]:		# below the clicked frame: its callers, or hidden
            caller = f[1] <= z[1] + 0.01 and f[1] + f[2] >= z[1] + z[2] - 0.01
            want = (caller, 10.0, 1180.0) if caller else (False, None, None)
            if shown != want[0] or (caller and not (near(x, 10) and near(w, 1180))):
                bad.append("%d %s below: %r" % (i, f[0], g))
            elif caller and i and opacity != "0.5":
                bad.append("%d %s: a caller not faded" % (i, f[0]))
        elif inside(f, z):	# the frame and its callees, scaled
            if not (shown and near(x, 10 + (f[1] - z[1]) * scale) and near(w, f[2] * scale)):
                bad.append("%d %s callee: %r, want x %.2f w %.2f" %
                           (i, f[0], g, 10 + (f[1] - z[1]) * scale, f[2] * scale))
        elif shown:
            bad.append("%d %s outside shown" % (i, f[0]))
    label = got[zi][5]
    unzoom = d.js("return getComputedStyle(document.getElementById('unzoom')).opacity == '1';")
    tap(not bad and label == z[0] and unzoom,
        "a click on %s (frame %d) zooms: it 1180 px wide with its whole name, callees scaled %.2fx, "
        "callers full width and faded, the rest hidden, Reset Zoom shown" % (z[0], zi, scale))
    for b in bad[:10]:
        print("#", b)
    if label != z[0] or not unzoom:
        print("# label %r, Reset Zoom shown: %r" % (label, unzoom))
    return not bad


def restored(d, frames):
    got = d.js(STATE)
    return all(g[2] and near(g[0], f[1]) and near(g[1], f[2]) and g[3] == "1"
               for f, g in zip(frames, got)) and len(got) == len(frames)


def expected_share(frames, rx):
    spans = sorted((f[1], f[1] + f[2]) for f in frames[1:] if re.search(rx, f[0]))
    total, end = 0.0, float("-inf")
    for a, b in spans:
        if b > end:
            total += b - max(a, end)
            end = b
    return 100 * total / frames[0][2], len(spans)


def check_search(d, frames, rx):
    d.click(d.js("return document.getElementById('search');"))
    d.s("POST", "/alert/text", {"text": rx})
    d.s("POST", "/alert/accept", {})
    got = d.js(STATE)
    bad = [f[0] for f, g in zip(frames, got)
           if (g[4] == HIGHLIGHT) != (f is not frames[0] and re.search(rx, f[0]) is not None)
           or (g[4] != HIGHLIGHT and g[4] != f[4])]
    share, hits = expected_share(frames, rx)
    want = "Matched: %.1f%% (%d frames)" % (share, hits)
    text = d.js("return document.getElementById('matched').textContent;")
    tap(not bad and text == want and hits > 1,
        "search %r typed into the prompt: exactly the %d matching frames highlighted, "
        "%r (nested matches counted once)" % (rx, hits, text))
    if bad or text != want:
        print("# wrong fill: %r; matched text %r, want %r" % (bad, text, want))


def check_hover(d, frames, i):
    rect = d.js(RECT, i)
    d.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse",
                                          "parameters": {"pointerType": "mouse"},
                                          "actions": [{"type": "pointerMove", "duration": 0,
                                                       "origin": rect, "x": 0, "y": 0}]}]})
    text = d.js("return document.getElementById('details').textContent;")
    title = d.js("return document.querySelectorAll('g.f')[arguments[0]]"
                 ".querySelector('title').textContent;", i)
    tap(text == title and text.startswith(frames[i][0] + " ("),
        "hovering %s puts its name, time, calls and share on the details line: %r" % (frames[i][0], text))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def main():
    svg, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    frames = file_frames(svg)
    d = Driver(work)
    try:
        d.s("POST", "/url", {"url": "file://" + svg})
        ready = d.js("return document.documentElement.getAttribute('data-ready');")
        got = d.js(STATE)
        names = d.js("return Array.from(document.querySelectorAll('g.f title'))"
                     ".map(function (t) { return t.textContent; });")
        tap(ready == "1" and len(got) == len(frames) and
            all(t.startswith(f[0] + " (") for t, f in zip(names, frames)) and restored(d, frames),
            "Chromium draws all %d frames where the file puts them, the script ran" % len(frames))
        # the deepest frame with a callee (the smallest y), not the root
        zi = min((i for i in range(1, len(frames)) if any(
            inside(g, frames[i]) and g[3] < frames[i][3] for g in frames)),
            key=lambda i: frames[i][3])
        check_zoom(d, frames, zi)
        d.click(d.js("return document.getElementById('unzoom');"))
        tap(restored(d, frames) and d.js("return document.documentElement.hasAttribute('data-zoom');") is False,
            "Reset Zoom puts every frame back where the file drew it")
        check_zoom(d, frames, zi)
        d.s("POST", "/actions", {"actions": [{"type": "key", "id": "kbd", "actions": [
            {"type": "keyDown", "value": "\ue00c"}, {"type": "keyUp", "value": "\ue00c"}]}]})
        tap(restored(d, frames), "Escape resets the zoom too")
        # a frame and one of its callees: the share counts the callee once
        outer = next(f[0] for f in frames[1:] if f[3] == frames[zi][3] + 16 and inside(frames[zi], f))
        check_search(d, frames, "^(%s|%s)$" % (re.escape(outer), re.escape(frames[zi][0])))
        check_hover(d, frames, len(frames) - 1)
        check_zoom(d, frames, zi)
        shot = os.path.join(work, "flame-browser.png")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(d.s("GET", "/screenshot")))
        size = png_size(shot)
        tap(size is not None and size[0] >= 1000 and size[1] >= 100,
            "a screenshot of the zoomed, searched graph: %s, %r px" % (shot, size))
        d.click(d.js("return document.getElementById('search');"))
        tap(d.js("return document.getElementById('matched').textContent;") == "" and
            all(g[4] == f[4] for f, g in zip(frames, d.js(STATE))),
            "Reset Search gives every frame its colour back")
    except Exception as e:
        tap(False, "the browser session: %s" % e)
    finally:
        d.quit()
    print("1..%d" % count)
    sys.exit(1 if failed else 0)


main()
