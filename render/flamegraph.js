/* SPDX-License-Identifier: BSD-2-Clause */
/* flamegraph.js - hover, zoom, search and URL state for ember's SVG flame graphs.
 * Names reach the page only as text (textContent), never as markup or code. */
"use strict";
var fg_state = null;

function fg_init(evt) {
	var doc = document, svg = doc.documentElement, frames = doc.getElementById("frames");
	var S = {
		svg: svg, frames: frames, n: 0, indexed: false,
		details: doc.getElementById("details"), unzoom: doc.getElementById("unzoom"),
		search: doc.getElementById("search"), ic: doc.getElementById("ignorecase"),
		matched: doc.getElementById("matched"),
		xpad: parseFloat(frames.getAttribute("fg-xpad")),
		full: parseFloat(frames.getAttribute("fg-full")),
		unit: frames.getAttribute("fg-unit") || "",
		fs: parseFloat(frames.getAttribute("fg-fontsize")),
		fw: parseFloat(frames.getAttribute("fg-fontwidth")),
		inverted: frames.getAttribute("fg-inverted") === "1",
		nametype: frames.getAttribute("fg-nametype") || "",
		searchcolor: frames.getAttribute("fg-searchcolor") || "rgb(230,0,230)",
		zoomed: -1, term: null, ignorecase: false, moved: []
	};
	fg_state = S;
	S.fluid = S.unit === "%";
	svg.addEventListener("click", fg_click);
	svg.addEventListener("mouseover", function (e) {
		var g = fg_group(e.target);
		if (g) S.details.textContent = S.nametype + " " + g.firstElementChild.textContent;
	});
	svg.addEventListener("mouseout", function (e) {
		if (fg_group(e.target)) S.details.textContent = " ";
	});
	window.addEventListener("keydown", function (e) {
		if (e.key === "F3" || e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && (e.key === "f" || e.keyCode === 70))) {
			e.preventDefault();
			fg_search_prompt();
		} else if (e.ctrlKey && (e.key === "i" || e.keyCode === 73)) {
			e.preventDefault();
			fg_toggle_case();
		}
	});
	if (S.fluid) {
		window.addEventListener("resize", function () { fg_relabel(); });
		fg_relabel();
	}
	fg_restore();
	fg_show_roots();
}

/* A flame graph taller than the window opens on its roots, at the bottom, not on empty sky. */
function fg_show_roots() {
	var S = fg_state, h = S.svg.getBoundingClientRect().height;
	if (!S.inverted && window.innerHeight && h > window.innerHeight)
		window.scrollTo(0, h - window.innerHeight);
}

/* Per-frame arrays, built on first use so that a big graph opens at once. */
function fg_index() {
	var S = fg_state;
	if (S.indexed) return;
	var c = S.frames.children, n = c.length;
	S.els = new Array(n); S.rects = new Array(n); S.texts = new Array(n); S.names = new Array(n);
	S.titles = new Array(n); S.x0 = new Float64Array(n); S.w0 = new Float64Array(n);
	S.y0 = new Float64Array(n); S.xs = new Array(n); S.ys = new Array(n); S.fills = new Array(n);
	S.labels = new Array(n);
	for (var i = 0; i < n; i++) {
		var g = c[i], t = g.firstElementChild, r = t.nextElementSibling, tx = r.nextElementSibling;
		var title = t.textContent, cut = title.lastIndexOf(" (");
		g.fg_i = i;
		S.els[i] = g; S.rects[i] = r; S.texts[i] = tx; S.titles[i] = title;
		S.names[i] = cut >= 0 ? title.substring(0, cut) : title;
		S.xs[i] = r.getAttribute("x"); S.ys[i] = r.getAttribute("y");
		S.x0[i] = parseFloat(S.xs[i]); S.w0[i] = parseFloat(r.getAttribute("width"));
		S.y0[i] = parseFloat(S.ys[i]); S.fills[i] = r.getAttribute("fill");
		S.labels[i] = tx ? tx.textContent : "";
	}
	S.n = n;
	S.indexed = true;
}

function fg_group(node) {
	var S = fg_state;
	while (node && node.parentNode !== S.frames) node = node.parentNode;
	return node || null;
}

function fg_px_per_unit() {
	var S = fg_state;
	return S.fluid ? S.svg.getBoundingClientRect().width / 100 : 1;
}

/* The label that fits w units: the name, or its start and "..". */
function fg_label(i, w, ppu) {
	var S = fg_state, chars = Math.floor(w * ppu / (S.fs * S.fw)), name = S.names[i];
	if (chars < 3) return "";
	if (name.length <= chars) return name;
	return name.substring(0, chars - 2) + "..";
}

/* Put frame i at x with width w (units) and fit its label. */
function fg_place(i, x, w, ppu) {
	var S = fg_state, r = S.rects[i], t = S.texts[i], label = fg_label(i, w, ppu);
	r.setAttribute("x", S.fluid ? x.toFixed(4) + "%" : x.toFixed(1));
	r.setAttribute("width", S.fluid ? w.toFixed(4) + "%" : w.toFixed(1));
	if (!t && label === "") return;
	if (!t) {
		t = document.createElementNS("http://www.w3.org/2000/svg", "text");
		t.setAttribute("y", (S.y0[i] + parseFloat(r.getAttribute("height")) / 2 + 3).toString());
		if (S.fluid) t.setAttribute("dx", "3");
		S.els[i].appendChild(t);
		S.texts[i] = t;
	}
	t.setAttribute("x", S.fluid ? x.toFixed(4) + "%" : (x + 3).toFixed(2));
	t.textContent = label;
}

function fg_relabel() {
	var S = fg_state, ppu = fg_px_per_unit();
	fg_index();
	for (var i = 0; i < S.n; i++) {
		if (S.zoomed < 0) fg_place(i, S.x0[i], S.w0[i], ppu);
	}
	if (S.zoomed >= 0) fg_zoom(S.zoomed);
}

function fg_zoom(z) {
	var S = fg_state, eps = 0.0001, ppu = fg_px_per_unit();
	fg_index();
	var zx = S.x0[z], zw = S.w0[z], zy = S.y0[z], ratio = S.full / zw;
	fg_unzoom_frames();
	S.zoomed = z;
	S.unzoom.classList.remove("hide");
	for (var i = 0; i < S.n; i++) {
		var x = S.x0[i], w = S.w0[i], e = S.els[i];
		var below = S.inverted ? S.y0[i] < zy : S.y0[i] > zy;
		if (below) {
			if (x <= zx + eps && x + w + eps >= zx + zw) {
				e.classList.add("parent");
				fg_place(i, S.xpad, S.full, ppu);
				S.moved.push(i);
			} else {
				e.classList.add("hide");
			}
		} else if (x + eps >= zx && x + eps < zx + zw && w > 0) {
			fg_place(i, S.xpad + (x - zx) * ratio, w * ratio, ppu);
			S.moved.push(i);
		} else {
			e.classList.add("hide");
		}
	}
	fg_set_params({ x: S.xs[z], y: S.ys[z] });
	if (S.term !== null) fg_search(S.term);
}

/* Back to the whole graph: only frames that moved or hid change. */
function fg_unzoom_frames() {
	var S = fg_state, ppu = fg_px_per_unit();
	if (S.zoomed < 0) return;
	for (var k = 0; k < S.moved.length; k++) {
		var i = S.moved[k];
		fg_place(i, S.x0[i], S.w0[i], ppu);
	}
	S.moved = [];
	var hidden = S.frames.querySelectorAll(".hide, .parent");
	for (var j = 0; j < hidden.length; j++) hidden[j].classList.remove("hide", "parent");
	S.zoomed = -1;
}

function fg_reset_zoom() {
	var S = fg_state;
	fg_unzoom_frames();
	S.unzoom.classList.add("hide");
	fg_set_params({ x: null, y: null });
	if (S.term !== null) fg_search(S.term);
}

function fg_click(e) {
	var S = fg_state, g = fg_group(e.target);
	if (g) {
		if (g.nodeName === "a" && !e.ctrlKey) return;
		e.preventDefault();
		fg_index();
		if (g.fg_i === S.zoomed) fg_reset_zoom();
		else fg_zoom(g.fg_i);
	} else if (e.target === S.unzoom) {
		fg_reset_zoom();
	} else if (e.target === S.search) {
		fg_search_prompt();
	} else if (e.target === S.ic) {
		fg_toggle_case();
	}
}

function fg_search_prompt() {
	var S = fg_state;
	if (S.term !== null) {
		fg_reset_search();
		return;
	}
	var term = prompt("Enter a search term (regexp allowed, eg: ^ext4_)" +
		(S.ignorecase ? ", ignoring case" : "") + "\nPress Ctrl-i to toggle case sensitivity", "");
	if (term !== null && term !== "") fg_search(term);
}

function fg_toggle_case() {
	var S = fg_state;
	S.ignorecase = !S.ignorecase;
	S.ic.classList.toggle("show", S.ignorecase);
	if (S.term !== null) fg_search(S.term);
}

function fg_reset_search() {
	var S = fg_state;
	fg_index();
	for (var i = 0; i < S.n; i++) S.rects[i].setAttribute("fill", S.fills[i]);
	S.term = null;
	S.search.classList.remove("show");
	S.search.textContent = "Search";
	S.matched.classList.add("hide");
	S.matched.textContent = " ";
	fg_set_params({ s: null });
}

/* Paint the frames whose name matches, and count their share once however deep they nest. */
function fg_search(term) {
	var S = fg_state, re;
	try {
		re = new RegExp(term, S.ignorecase ? "i" : "");
	} catch (err) {
		S.matched.classList.remove("hide");
		S.matched.textContent = "Invalid regexp";
		return;
	}
	fg_index();
	S.term = term;
	var lo = S.xpad, hi = S.xpad + S.full, hits = [];
	if (S.zoomed >= 0) { lo = S.x0[S.zoomed]; hi = lo + S.w0[S.zoomed]; }
	for (var i = 0; i < S.n; i++) {
		if (re.test(S.names[i])) {
			S.rects[i].setAttribute("fill", S.searchcolor);
			var a = Math.max(S.x0[i], lo), b = Math.min(S.x0[i] + S.w0[i], hi);
			if (b > a) hits.push([a, b]);
		} else {
			S.rects[i].setAttribute("fill", S.fills[i]);
		}
	}
	hits.sort(function (p, q) { return p[0] - q[0] || (q[1] - q[0]) - (p[1] - p[0]); });
	var count = 0, end = -Infinity;
	for (var k = 0; k < hits.length; k++) {
		if (hits[k][0] >= end - 0.0001) {
			count += hits[k][1] - hits[k][0];
			end = hits[k][1];
		}
	}
	var pct = hi > lo ? 100 * count / (hi - lo) : 0;
	pct = pct >= 99.995 ? "100" : pct.toFixed(1);
	S.search.classList.add("show");
	S.search.textContent = "Reset Search";
	S.matched.classList.remove("hide");
	S.matched.textContent = "Matched: " + pct + "%";
	fg_set_params({ s: term });
}

function fg_params() {
	var out = {}, q = window.location.search.substring(1).split("&");
	for (var i = 0; i < q.length; i++) {
		var kv = q[i].split("=");
		if (kv.length === 2 && kv[0] && kv[1]) {
			try { out[kv[0]] = decodeURIComponent(kv[1]); } catch (err) { }
		}
	}
	return out;
}

/* Keep zoom and search in the URL (?x=&y=&s=), so that a reload or a shared link shows them. */
function fg_set_params(changes) {
	var p = fg_params(), q = [];
	for (var k in changes) {
		if (changes[k] === null) delete p[k];
		else p[k] = changes[k];
	}
	for (var key in p) q.push(encodeURIComponent(key) + "=" + encodeURIComponent(p[key]));
	var url = window.location.pathname + (q.length ? "?" + q.join("&") : "");
	try { history.replaceState(null, "", url); } catch (err) { }
}

function fg_restore() {
	var S = fg_state, p = fg_params();
	if (p.x !== undefined && p.y !== undefined) {
		fg_index();
		for (var i = 0; i < S.n; i++) {
			if (S.xs[i] === p.x && S.ys[i] === p.y) {
				fg_zoom(i);
				break;
			}
		}
	}
	if (p.s !== undefined) fg_search(p.s);
}
