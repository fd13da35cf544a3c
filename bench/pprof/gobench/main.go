// Command gobench measures Go's github.com/google/pprof/profile on the same job as pprof_bench:
// Parse (gunzip + decode + checks) then Write (encode + gzip), single goroutine.
// Build: go build -o gobench ./gobench (in bench/pprof: its go.mod pins github.com/google/pprof)
// Usage: gobench [-time 3s] FILE...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/google/pprof/profile"
)

// User+system CPU time of the process (includes the garbage collector's work).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	minTime := flag.Duration("time", 3*time.Second, "minimum measuring time per file")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		var out bytes.Buffer
		iters := 0
		cpu0 := cpuTime()
		start := time.Now()
		for time.Since(start) < *minTime {
			p, err := profile.Parse(bytes.NewReader(data))
			if err != nil {
				panic(err)
			}
			out.Reset()
			if err := p.Write(&out); err != nil {
				panic(err)
			}
			iters++
		}
		el := time.Since(start)
		cpu := cpuTime() - cpu0
		fmt.Printf("%s: %d bytes, %d iterations, wall %.3f ms/op, cpu %.3f ms/op, %.2f MB/s of input per cpu-second\n",
			path, len(data), iters, el.Seconds()*1000/float64(iters), cpu.Seconds()*1000/float64(iters),
			float64(len(data))*float64(iters)/cpu.Seconds()/1e6)
	}
}
