// Writes a Go heap profile (what pyroscope-go uploads for memory) to the file named by os.Args[1].
// Built and run by receiver_test.cc at test time (a module of its own, standard library only).
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var sink [][]byte

//go:noinline
func allocSmall() {
	for i := 0; i < 4000; i++ {
		sink = append(sink, make([]byte, 256))
	}
}

//go:noinline
func allocLarge() {
	for i := 0; i < 64; i++ {
		sink = append(sink, make([]byte, 64<<10))
	}
}

func main() {
	runtime.MemProfileRate = 1 // record every allocation so the profile is not empty by chance
	allocSmall()
	allocLarge()
	runtime.GC()
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		panic(err)
	}
}
