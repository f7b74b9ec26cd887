// SPDX-License-Identifier: BSD-2-Clause
// templates.cpp - a capture workload: C++ templates, namespaces, operators, lambdas
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace {
volatile unsigned long sink;

unsigned long churn(int n)
{
	unsigned long x = 0;
	for (int i = 0; i < n; i++)
		x += (unsigned long)i * 2654435761u;
	return x;
}
} // namespace

namespace app::detail {
template <typename K, typename V, int N> struct Table {
	std::map<K, std::vector<V>> rows;
	unsigned long operator()(const K &k) { return churn(N) + rows[k].size(); }
	template <typename F> unsigned long visit(F &&f) { return f(N) + (*this)(K()); }
};

template <int D> struct Deep {
	static unsigned long run(int n) { return Deep<D - 1>::run(n) + 1; }
};
template <> struct Deep<0> {
	static unsigned long run(int n) { return churn(n); }
};
} // namespace app::detail

using BigTable = app::detail::Table<std::basic_string<char>,
	std::map<std::string, std::vector<std::pair<int, std::string>>>, 30000>;

int main(int argc, char **argv)
{
	auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(argc > 1 ? 1500 : 300);
	BigTable t;
	while (std::chrono::steady_clock::now() < end) {
		sink += t.visit([](int n) { return churn(n); });
		sink += app::detail::Deep<8>::run(20000);
	}
	return 0;
}
