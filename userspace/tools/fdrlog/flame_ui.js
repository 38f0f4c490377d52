// flame_ui.js - what makes the flame graph interactive, as flamegraph.pl's
// do: click a frame to zoom to it (its callers stay, faded, full width),
// "Reset Zoom" or Escape to go back, "Search" or Ctrl-F to highlight the
// frames whose name matches a regular expression (the share they cover
// shown, nested matches counted once; click "Reset Search" to clear), and
// a line naming the frame under the pointer.  flame.c inlines this file
// into the SVG, so it must name nothing outside it (no links, no imports)
// and never contain the three characters that end a CDATA section.
// ?s=REGEX in the address starts with that search.
"use strict";
(function () {
	var svg = document.documentElement;
	var WIDTH = parseFloat(svg.getAttribute("width")), MARGIN = 10, CHAR_W = 7;
	var HIGHLIGHT = "rgb(230,0,230)";
	var frames = [], root, details, unzoom, searchBtn, matched;

	function frameOf(g) {
		var r = g.querySelector("rect"), info = g.querySelector("title").textContent;
		var cut = info.lastIndexOf(" (");

		return { g: g, r: r, t: g.querySelector("text"), info: info,
			 name: cut < 0 ? info : info.slice(0, cut),
			 x: parseFloat(r.getAttribute("x")), w: parseFloat(r.getAttribute("width")),
			 y: parseFloat(r.getAttribute("y")), fill: r.getAttribute("fill") };
	}

	// The label flame.c would draw at this width: cut with "..", or none.
	function label(f, x, w) {
		var room = Math.floor((w - 6) / CHAR_W), s = f.name;

		if (s.length > room)
			s = room >= 3 ? s.slice(0, room - 2) + ".." : "";
		f.t.textContent = s;
		f.t.setAttribute("x", (x + 3).toFixed(2));
	}

	function place(f, x, w, shown, faded) {
		f.r.setAttribute("x", x.toFixed(2));
		f.r.setAttribute("width", w.toFixed(2));
		f.g.style.display = shown ? "" : "none";
		f.g.style.opacity = faded ? "0.5" : "";
		label(f, x, w);
	}

	// Frames nest by x range: what lies above z inside its range is its
	// callees, what lies below and covers it is its callers.
	function zoom(z) {
		var eps = 0.01, scale = (WIDTH - 2 * MARGIN) / z.w;

		if (z === root || z.w <= 0)
			return reset();
		frames.forEach(function (f) {
			if (f.y > z.y) {
				var caller = f.x <= z.x + eps && f.x + f.w >= z.x + z.w - eps;

				place(f, MARGIN, WIDTH - 2 * MARGIN, caller, caller && f !== root);
			} else {
				var inside = f.x >= z.x - eps && f.x + f.w <= z.x + z.w + eps;

				place(f, MARGIN + (f.x - z.x) * scale, f.w * scale, inside, false);
			}
		});
		unzoom.style.opacity = "1";
		svg.setAttribute("data-zoom", z.name);
	}

	function reset() {
		frames.forEach(function (f) { place(f, f.x, f.w, true, false); });
		unzoom.style.opacity = "0";
		svg.removeAttribute("data-zoom");
	}

	// The share of the root the matching frames cover: their x ranges
	// merged, so that a match inside a match is not counted twice.
	function share(spans) {
		var sum = 0, end = -Infinity;

		spans.sort(function (a, b) { return a[0] - b[0]; });
		spans.forEach(function (s) {
			if (s[1] > end) {
				sum += s[1] - Math.max(s[0], end);
				end = s[1];
			}
		});
		return root.w > 0 ? 100 * sum / root.w : 0;
	}

	function search(term) {
		var re, spans = [];

		try {
			re = new RegExp(term);
		} catch (e) {
			matched.textContent = "not a regular expression: " + term;
			return;
		}
		frames.forEach(function (f) {
			var hit = f !== root && re.test(f.name);

			f.r.setAttribute("fill", hit ? HIGHLIGHT : f.fill);
			if (hit)
				spans.push([f.x, f.x + f.w]);
		});
		matched.textContent = "Matched: " + share(spans).toFixed(1) + "% (" + spans.length + " frames)";
		searchBtn.textContent = "Reset Search";
		svg.setAttribute("data-search", term);
	}

	function clearSearch() {
		frames.forEach(function (f) { f.r.setAttribute("fill", f.fill); });
		matched.textContent = "";
		searchBtn.textContent = "Search";
		svg.removeAttribute("data-search");
	}

	function askSearch() {
		var term;

		if (svg.hasAttribute("data-search"))
			return clearSearch();
		term = window.prompt("Search for a function (regular expression):", "");
		if (term)
			search(term);
	}

	function hook(f) {
		f.g.style.cursor = "pointer";
		f.g.addEventListener("click", function () { zoom(f); });
		f.g.addEventListener("mouseover", function () { details.textContent = f.info; });
		f.g.addEventListener("mouseout", function () { details.textContent = " "; });
	}

	function init() {
		var gs = document.querySelectorAll("g.f"), q;

		for (var i = 0; i < gs.length; i++)
			frames.push(frameOf(gs[i]));
		if (!frames.length)
			return;
		root = frames[0];
		details = document.getElementById("details");
		unzoom = document.getElementById("unzoom");
		searchBtn = document.getElementById("search");
		matched = document.getElementById("matched");
		frames.forEach(hook);
		unzoom.addEventListener("click", reset);
		searchBtn.addEventListener("click", askSearch);
		window.addEventListener("keydown", function (e) {
			if (e.key === "Escape") {
				reset();
			} else if ((e.ctrlKey || e.metaKey) && e.key === "f") {
				e.preventDefault();
				askSearch();
			}
		});
		q = new URLSearchParams(window.location.search).get("s");
		if (q)
			search(q);
		svg.setAttribute("data-ready", "1");
	}

	init();
})();
