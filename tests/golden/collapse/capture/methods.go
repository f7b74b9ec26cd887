// SPDX-License-Identifier: BSD-2-Clause
// methods.go - a capture workload: Go methods on pointer receivers and closures
package main

import (
	"fmt"
	"time"
)

type Worker struct{ n uint64 }

//go:noinline
func (w *Worker) Run(k int) uint64 {
	for i := 0; i < k; i++ {
		w.n = w.n*31 + uint64(i)
	}
	return w.n
}

//go:noinline
func walk(depth int, f func() uint64) uint64 {
	if depth == 0 {
		return f()
	}
	return walk(depth-1, f) + 1
}

func main() {
	end := time.Now().Add(1500 * time.Millisecond)
	w := &Worker{}
	var sink uint64
	for time.Now().Before(end) {
		sink += walk(5, func() uint64 { return w.Run(20000) })
	}
	fmt.Println(sink)
}
