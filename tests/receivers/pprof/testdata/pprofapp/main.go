// pprofapp: a small Go program with CPU, allocation, mutex and channel-blocking activity, for the
// pprof receiver tests.
//
//	pprofapp -serve          serves net/http/pprof on 127.0.0.1:0 and prints "PORT <n>"
//	pprofapp -write DIR      writes cpu, heap, allocs, mutex, block and goroutine .pb.gz into DIR
package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink [][]byte

func burnCPU(stop <-chan struct{}) {
	buf := make([]byte, 4096)
	for {
		select {
		case <-stop:
			return
		default:
		}
		for i := 0; i < 200; i++ {
			h := sha256.Sum256(buf)
			buf[i%len(buf)] = h[0]
		}
	}
}

func allocate(stop <-chan struct{}) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		b := make([]byte, 1024+i%4096)
		if i%64 == 0 {
			sink = append(sink, b)
			if len(sink) > 256 {
				sink = sink[128:]
			}
		}
		if i%1000 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
}

func contend(stop <-chan struct{}) {
	var mu sync.Mutex
	for g := 0; g < 4; g++ {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				mu.Lock()
				time.Sleep(100 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
}

func block(stop <-chan struct{}) {
	ch := make(chan int)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
				ch <- 1
			}
		}
	}()
	for {
		select {
		case <-stop:
			return
		case <-ch:
		}
	}
}

func startWork() chan struct{} {
	stop := make(chan struct{})
	go burnCPU(stop)
	go allocate(stop)
	go contend(stop)
	go block(stop)
	return stop
}

func writeProfiles(dir string) error {
	f, err := os.Create(filepath.Join(dir, "cpu.pb.gz"))
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	time.Sleep(700 * time.Millisecond)
	pprof.StopCPUProfile()
	f.Close()
	runtime.GC()
	for _, name := range []string{"heap", "allocs", "mutex", "block", "goroutine"} {
		f, err := os.Create(filepath.Join(dir, name+".pb.gz"))
		if err != nil {
			return err
		}
		if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

func main() {
	serve := flag.Bool("serve", false, "serve net/http/pprof on a loopback port")
	write := flag.String("write", "", "write profiles into this directory and exit")
	flag.Parse()
	runtime.MemProfileRate = 4096
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	stop := startWork()
	switch {
	case *write != "":
		if err := writeProfiles(*write); err != nil {
			log.Fatal(err)
		}
		close(stop)
	case *serve:
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("PORT %d\n", ln.Addr().(*net.TCPAddr).Port)
		os.Stdout.Sync()
		log.Fatal(http.Serve(ln, nil))
	default:
		flag.Usage()
		os.Exit(2)
	}
}
