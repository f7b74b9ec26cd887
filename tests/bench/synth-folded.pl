#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# synth-folded.pl - a synthetic folded profile: N unique stacks, depth ~D, shared prefixes as in
# real programs. Deterministic for a seed. Usage: synth-folded.pl N DEPTH SEED > out.folded
use strict;
use warnings;

my ($n, $depth, $seed) = @ARGV;
$n //= 100000;
$depth //= 30;
$seed //= 1;
srand($seed);
my @comms = map { "app$_" } 0 .. 7;
my @mods = qw(libc.so.6 libstdc++.so.6 app libssl.so.3 libz.so.1 [kernel.kallsyms]);
my @words = qw(read write parse handle process dispatch update render compute encode decode
	alloc free lookup insert remove flush sync poll wait send recv open close map reduce
	visit walk scan merge split sort hash copy fill check apply commit);
my @vocab;
for my $i (0 .. 4999) {
	my $w = $words[$i % @words] . "_" . $words[int($i / @words) % @words];
	push @vocab, $i % 5 == 0 ? "ns$i\::Class::$w" : $i % 7 == 0 ? "${w}_[k]" : "${w}_$i";
}
my %seen;
my $made = 0;
while ($made < $n) {
	my $d = $depth - 10 + int(rand(21));
	my $path = int(rand(@comms));
	my @frames = ($comms[$path]);
	for my $k (1 .. $d) {
		# narrow fan-out near the root, wider towards the leaves: long shared prefixes
		my $fan = $k < 4 ? 3 : $k < 12 ? 6 : 40;
		$path = ($path * 131 + int(rand($fan)) + $k * 7919) % 1000003;
		push @frames, $vocab[$path % @vocab];
	}
	my $stack = join(";", @frames);
	next if $seen{$stack}++;
	my $count = 1 + int(exp(rand(7)));
	print "$stack $count\n";
	$made++;
}
