#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# fgframes.pl - the frames of an SVG flame graph, one line each and sorted, for comparing graphs
# drawn by different tools: "y x width height fill|title|label". The root's label is dropped
# (ember writes "all", flamegraph.pl nothing). Usage: fgframes.pl [--no-fill] graph.svg
use strict;
use warnings;

my $nofill = @ARGV && $ARGV[0] eq '--no-fill' ? shift : 0;
local $/;
my $svg = <>;
$svg =~ s/^.*?<g id="frames"[^>]*>//s or die "no frames group\n";
my @out;
while ($svg =~ m{<(g|a)\b[^>]*>\s*<title>(.*?)</title>\s*<rect ([^>]*)/>\s*(?:<text\b[^>]*>(.*?)</text>)?\s*</\1>}gs) {
	my ($title, $attrs, $label) = ($2, $3, $4 // '');
	my %a = $attrs =~ /(\w+)="([^"]*)"/g;
	$label = '' if $title =~ /^all \(/;
	$a{fill} = '-' if $nofill;
	push @out, join(' ', map { $a{$_} } qw(y x width height fill)) . "|$title|$label\n";
}
print sort @out;
