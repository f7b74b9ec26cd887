// SPDX-License-Identifier: BSD-2-Clause
// flamegraph.mjs - ember's SVG flame graphs in headless Chromium, driven as a person would:
// hover, click to zoom, search, Matched, reset, URL state, hostile names, a big graph's speed.
// Usage: node flamegraph.mjs PLAYWRIGHT_DIR SVG_DIR   (SVGs made by run-flamegraph.sh)
import { createRequire } from "node:module";
import path from "node:path";

const [pwdir, dir] = process.argv.slice(2);
const require = createRequire(path.join(pwdir, "x.js"));
const { chromium } = require("playwright-core");
let passed = 0, failed = 0;
function check(name, ok, detail) {
	if (ok) passed++;
	else { failed++; console.log(`FAIL: ${name}${detail !== undefined ? ": " + JSON.stringify(detail) : ""}`); }
}
const url = (f, q = "") => "file://" + path.join(dir, f) + q;

/* The centre of the frame whose title starts with "name (", in page pixels. */
async function frameAt(page, name) {
	return page.evaluate((name) => {
		for (const g of document.getElementById("frames").children) {
			if (g.classList.contains("hide")) continue;
			if (g.firstElementChild.textContent.startsWith(name + " (")) {
				const r = g.querySelector("rect").getBoundingClientRect();
				return { x: r.x + Math.min(r.width / 2, 20), y: r.y + r.height / 2, w: r.width };
			}
		}
		return null;
	}, name);
}
const text = (page, id) => page.evaluate((id) => document.getElementById(id).textContent, id);
const hidden = (page, id) => page.evaluate((id) => document.getElementById(id).classList.contains("hide"), id);
const query = (page) => page.evaluate(() => window.location.search);

async function interactive(browser) {
	const page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
	const dialogs = [];
	let answer = "parse";
	page.on("dialog", async (d) => { dialogs.push(d.type()); d.type() === "prompt" ? await d.accept(answer) : await d.dismiss(); });
	await page.goto(url("annotated.svg"));

	let f = await frameAt(page, "read_socket");
	await page.mouse.move(f.x, f.y);
	check("hover shows the frame", await text(page, "details") === "Function: read_socket (250 samples, 32.14%)", await text(page, "details"));
	await page.mouse.move(1, 1);
	check("leaving clears the details", (await text(page, "details")).trim() === "");

	// Zoom on handle_request: full width, ancestors dimmed, others hidden, labels refitted.
	const before = await frameAt(page, "parse_header");
	f = await frameAt(page, "handle_request");
	await page.mouse.click(f.x, f.y);
	const z = await frameAt(page, "handle_request");
	check("click zooms to full width", Math.abs(z.w - 1180) < 1, z);
	check("Reset Zoom shows", !(await hidden(page, "unzoom")));
	check("ancestors dimmed", await page.evaluate(() => [...document.querySelectorAll("#frames > .parent")].map((g) => g.firstElementChild.textContent.split(" (")[0]).sort().join(",")) === "all,app,main");
	check("other towers hidden", (await frameAt(page, "java-1234")) === null);
	const after = await frameAt(page, "parse_header");
	check("children widen", after && after.w > before.w * 1.5, [before, after]);
	check("labels recomputed", await page.evaluate(() => [...document.querySelectorAll("#frames text")].some((t) => t.textContent === "parse_header")));
	check("zoom kept in the URL", /[?&]x=[^&]+&y=[^&]+/.test(await query(page)), await query(page));
	await page.mouse.click(z.x, z.y);
	check("click again unzooms", (await frameAt(page, "java-1234")) !== null && (await hidden(page, "unzoom")));
	check("unzoom clears the URL", !/x=/.test(await query(page)));
	f = await frameAt(page, "handle_request");
	await page.mouse.click(f.x, f.y);
	await page.click("#unzoom");
	check("Reset Zoom returns", (await frameAt(page, "java-1234")) !== null && Math.abs((await frameAt(page, "handle_request")).w - z.w) > 1);

	// Search: Ctrl-F prompts; matches painted; Matched counts nested matches once.
	await page.keyboard.press("Control+f");
	check("Ctrl-F prompts", dialogs.includes("prompt"));
	check("Matched: parse and parse_header once", await text(page, "matched") === "Matched: 15.5%", await text(page, "matched"));
	check("matches painted", await page.evaluate(() => document.querySelectorAll('#frames rect[fill="rgb(230,0,230)"]').length) === 2);
	check("Reset Search offered", await text(page, "search") === "Reset Search");
	check("search kept in the URL", /[?&]s=parse/.test(await query(page)));
	await page.click("#search");
	check("Reset Search clears", await hidden(page, "matched") && await page.evaluate(() => document.querySelectorAll('#frames rect[fill="rgb(230,0,230)"]').length) === 0);
	answer = "PARSE";
	await page.keyboard.press("F3");
	check("case-sensitive: no match", await text(page, "matched") === "Matched: 0.0%", await text(page, "matched"));
	await page.keyboard.press("Control+i");
	check("Ctrl-I ignores case", await text(page, "matched") === "Matched: 15.5%", await text(page, "matched"));
	// Zoomed search counts within the zoomed frame.
	f = await frameAt(page, "handle_request");
	await page.mouse.click(f.x, f.y);
	check("Matched within zoom", await text(page, "matched") === "Matched: 32.4%", await text(page, "matched"));

	// The URL restores zoom and search.
	const q = await query(page);
	const p2 = await browser.newPage({ viewport: { width: 1300, height: 800 } });
	await p2.goto(url("annotated.svg", q));
	check("URL restores zoom", Math.abs((await frameAt(p2, "handle_request")).w - 1180) < 1 && (await frameAt(p2, "java-1234")) === null);
	await p2.goto(url("annotated.svg", "?s=futex"));
	check("URL restores search", (await text(p2, "matched")).startsWith("Matched: 12.7"), await text(p2, "matched"));
	await p2.setViewportSize({ width: 1300, height: 1400 });
	await p2.goto(url("node.svg"));
	f = await frameAt(p2, "v8::internal::Heap::CollectGarbage");
	await p2.mouse.move(f.x, f.y);
	check("thousands separators", /\(\d{1,3}(,\d{3})+ samples, /.test(await text(p2, "details")), await text(p2, "details"));
	await p2.goto(url("diff.svg"));
	f = await frameAt(p2, "ast");
	await p2.mouse.move(f.x, f.y);
	check("differential hover shows the delta", (await text(p2, "details")) === "Function: ast (90 samples, 20.69%; +13.79%)", await text(p2, "details"));

	// Fluid graph: fills the window, labels fitted to it.
	await p2.setViewportSize({ width: 600, height: 700 });
	await p2.goto(url("fluid.svg"));
	const fw = await p2.evaluate(() => document.documentElement.getBoundingClientRect().width);
	check("fluid graph fills the window", Math.abs(fw - 600) < 20, fw);
	check("fluid labels fit", await p2.evaluate(() => [...document.querySelectorAll("#frames text")].every((t) => t.getComputedTextLength() <= t.previousElementSibling.getBoundingClientRect().width + 1)));
	f = await frameAt(p2, "handle_request");
	await p2.mouse.click(f.x, f.y);
	const fz = await frameAt(p2, "handle_request");
	check("fluid zoom fills the width", fz.w > 550, fz);
	await page.close();
	await p2.close();
}

async function hostile(browser) {
	const page = await browser.newPage();
	const dialogs = [];
	page.on("dialog", async (d) => { dialogs.push(d.message()); d.type() === "prompt" ? await d.accept("<script>") : await d.dismiss(); });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	await page.goto(url("hostile.svg", "?s=%3Cscript%3E&x=%22%5D%3Cscript%3E&y=1"));
	const titles = await page.evaluate(() => [...document.querySelectorAll("#frames title")].map((t) => t.textContent));
	check("hostile names shown as text", titles.some((t) => t.startsWith("<script>alert(1)</script> (")), titles.slice(0, 3));
	check("hostile: only our script element", await page.evaluate(() => document.querySelectorAll("script").length) === 1);
	check("hostile: no element of theirs", await page.evaluate(() => document.querySelectorAll("img, a, foreignObject, iframe").length) === 0);
	check("hostile: title as text", (await text(page, "title")) === '<script>alert("t")</script>');
	for (const g of await page.evaluate(() => [...document.getElementById("frames").children].map((g, i) => i))) {
		const box = await page.evaluate((i) => {
			const r = document.getElementById("frames").children[i].querySelector("rect").getBoundingClientRect();
			return { x: r.x + 2, y: r.y + r.height / 2, w: r.width };
		}, g);
		if (box.w < 3) continue;
		await page.mouse.move(box.x, box.y);
		await page.mouse.click(box.x, box.y);
	}
	await page.keyboard.press("Control+f");
	await page.keyboard.press("Control+f");
	await page.evaluate(() => fg_search("["));
	check("invalid regexp reported", (await text(page, "matched")) === "Invalid regexp");
	const pwned = await page.evaluate(() => window.pwned);
	check("hostile: nothing executed", pwned === undefined && dialogs.every((m) => m.startsWith("Enter a search term")), { pwned, dialogs });
	check("hostile: no page errors", errors.length === 0, errors);
	await page.close();
}

/* The 100,000-stack graph: open it, zoom and search, timed inside the page (not process start). */
async function big(browser) {
	let best = Infinity, detail;
	for (let round = 0; round < 3; round++) {
		const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
		await page.goto(url("big.svg"), { waitUntil: "load" });
		const t = await page.evaluate(() => {
			const nav = performance.getEntriesByType("navigation")[0];
			const frames = document.getElementById("frames").children.length;
			const t0 = performance.now();
			fg_search("decode");
			const m = document.getElementById("matched").textContent;
			let widest = 1;
			for (let i = 1; i < frames; i++) if (fg_state.w0[i] > fg_state.w0[widest] && fg_state.w0[i] < fg_state.full - 1) widest = i;
			fg_zoom(widest);
			const zoomed = fg_state.els[widest].querySelector("rect").getAttribute("width");
			fg_reset_zoom();
			return { load: nav.loadEventEnd, interact: performance.now() - t0, frames, m, zoomed };
		});
		if (t.load + t.interact < best) { best = t.load + t.interact; detail = t; }
		await page.close();
	}
	console.log(`big graph: ${detail.frames} frames, load ${detail.load.toFixed(0)} ms, search+zoom ${detail.interact.toFixed(0)} ms (best of 3)`);
	check("big graph: search matches", /^Matched: /.test(detail.m) && parseFloat(detail.m.slice(9)) > 0, detail.m);
	check("big graph: zoom works", parseFloat(detail.zoomed) > 1179, detail.zoomed);
}

/* A stack 150 frames deep is taller than the window: the page opens on its roots. */
async function deep(browser) {
	const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
	await page.goto(url("deep.svg"));
	const f = await frameAt(page, "all");
	check("deep graph: the root frame is in view on load", f && f.y > 0 && f.y < 1000, f);
	const top = await frameAt(page, "f150");
	check("deep graph: taller than the window", top && top.y < 0, top);
	await page.close();
	const ic = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
	await ic.goto(url("deep-icicle.svg"));
	const r = await frameAt(ic, "all");
	check("deep icicle: the root stays in view at the top", r && r.y > 0 && r.y < 200, r);
	await ic.close();
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--allow-file-access-from-files"] });
try {
	await interactive(browser);
	await hostile(browser);
	await big(browser);
	await deep(browser);
} catch (e) {
	failed++;
	console.log("FAIL: " + (e.stack || e));
} finally {
	await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
