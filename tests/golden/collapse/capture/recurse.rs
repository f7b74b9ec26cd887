// SPDX-License-Identifier: BSD-2-Clause
// recurse.rs - a capture workload: Rust generics, traits and closures
use std::collections::HashMap;
use std::time::{Duration, Instant};

trait Shape { fn area(&self, n: u64) -> u64; }
struct Square(u64);
impl Shape for Square {
    #[inline(never)]
    fn area(&self, n: u64) -> u64 { (0..n).fold(self.0, |a, i| a.wrapping_mul(31).wrapping_add(i)) }
}

#[inline(never)]
fn total<S: Shape>(shapes: &[S], n: u64) -> u64 { shapes.iter().map(|s| s.area(n)).sum() }

#[inline(never)]
fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }

fn main() {
    let end = Instant::now() + Duration::from_millis(1500);
    let shapes: Vec<Square> = (1..50).map(Square).collect();
    let mut m: HashMap<u64, u64> = HashMap::new();
    let mut sink = 0u64;
    while Instant::now() < end {
        sink = sink.wrapping_add(total(&shapes, 2000));
        sink = sink.wrapping_add(fib(20));
        *m.entry(sink % 64).or_insert(0) += 1;
    }
    println!("{} {}", sink, m.len());
}
