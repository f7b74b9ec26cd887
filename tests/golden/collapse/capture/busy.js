// SPDX-License-Identifier: BSD-2-Clause
// busy.js - a capture workload: JIT-compiled JavaScript, named with --perf-basic-prof
'use strict';
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const re = /[&<>"']/g;
function escape(s) { return s.replace(re, (c) => '&#' + c.charCodeAt(0) + ';'); }
class Renderer {
	render(n) { let out = ''; for (let i = 0; i < n; i++) out += escape('<a href="x">' + i); return out.length; }
}
const end = Date.now() + 1500;
let sink = 0;
const r = new Renderer();
while (Date.now() < end) { sink += fib(18) + r.render(200); }
console.log(sink);
