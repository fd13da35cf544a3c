// Command profgen writes the six Go runtime profiles (cpu, heap, allocs, mutex, block, goroutine)
// into a directory, so the pprof round-trip tests run on what a real Go program emits.
// Usage: profgen -dir DIR -cpu 1.5s
// The CPU work runs under pprof labels that look like tracer output (span_id/trace_id in hex,
// Datadog's "span id"/"local root span id" in decimal) so the trace-link path is exercised.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var retained [][]int

func sieve(n int) int {
	composite := make([]bool, n)
	count := 0
	for i := 2; i < n; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j < n; j += i {
			composite[j] = true
		}
	}
	return count
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func buildMap(n int) map[string]int {
	m := make(map[string]int)
	for i := 0; i < n; i++ {
		m[fmt.Sprintf("key-%d", i)] = i
	}
	return m
}

func request(ctx context.Context, id int, mu *sync.Mutex, shared *int) {
	labels := pprof.Labels(
		"span_id", fmt.Sprintf("%016x", 0x5a000000+id),
		"trace_id", fmt.Sprintf("%032x", 0x7e000000+id/3),
		"span id", fmt.Sprintf("%d", 9000000000+id),
		"local root span id", fmt.Sprintf("%d", 8000000000+id/3),
		"route", []string{"/a", "/b", "/c"}[id%3])
	pprof.Do(ctx, labels, func(context.Context) {
		switch id % 3 {
		case 0:
			*shared += sieve(200000)
		case 1:
			*shared += fib(22)
		default:
			*shared += len(buildMap(3000))
		}
		mu.Lock()
		retained = append(retained, make([]int, 256+id%64))
		if len(retained) > 2000 {
			retained = retained[1000:]
		}
		time.Sleep(50 * time.Microsecond)
		mu.Unlock()
	})
}

func write(dir, name string, fn func(f *os.File) error) {
	f, err := os.Create(filepath.Join(dir, name+".pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := fn(f); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
}

func main() {
	dir := flag.String("dir", ".", "output directory")
	cpu := flag.Duration("cpu", 1500*time.Millisecond, "CPU profile duration")
	flag.Parse()
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	runtime.MemProfileRate = 2048

	f, err := os.Create(filepath.Join(*dir, "cpu.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	var mu sync.Mutex
	shared := 0
	deadline := time.Now().Add(*cpu)
	for id := 0; time.Now().Before(deadline); id += 4 {
		var wg sync.WaitGroup
		for k := 0; k < 4; k++ {
			wg.Add(1)
			go func(id int) {
				defer wg.Done()
				request(context.Background(), id, &mu, &shared)
			}(id + k)
		}
		wg.Wait()
	}
	pprof.StopCPUProfile()
	f.Close()

	// Goroutines parked in a labelled context show up with labels in the goroutine profile.
	block := make(chan struct{})
	for i := 0; i < 3; i++ {
		go pprof.Do(context.Background(), pprof.Labels("span_id", fmt.Sprintf("%016x", 0xbeef+i)),
			func(context.Context) { <-block })
	}
	runtime.GC()
	for _, name := range []string{"heap", "allocs", "mutex", "block", "goroutine"} {
		write(*dir, name, func(f *os.File) error { return pprof.Lookup(name).WriteTo(f, 0) })
	}
	close(block)
	fmt.Println(shared > 0)
}
