// SPDX-License-Identifier: BSD-2-Clause
// Busy.java - a capture workload: JIT-compiled Java with a perf map written at exit
import java.util.HashMap;

public class Busy {
	static long sink;

	static long hash(String s, int n) {
		long h = 0;
		for (int i = 0; i < n; i++)
			h = h * 31 + s.charAt(i % s.length());
		return h;
	}

	public static void main(String[] args) {
		long end = System.currentTimeMillis() + 1500;
		HashMap<Long, String> m = new HashMap<>();
		while (System.currentTimeMillis() < end) {
			sink += hash("flame graph", 20000);
			m.put(sink % 128, Long.toString(sink));
		}
		System.out.println(sink + " " + m.size());
	}
}
