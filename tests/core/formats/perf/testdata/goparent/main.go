// goparent: a Go program (a non-PIE executable: its code sits at the addresses its file names)
// that runs another program as its child and works until the child exits or SIGTERM comes (then it
// ends the child and exits 0), for the perf recording tests.
//
//	goparent CHILD [ARGS...]    prints "started" once the child runs
package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

var sink uint64

//go:noinline
func spin(n uint64) uint64 {
	s := uint64(0)
	for i := uint64(0); i < n; i++ {
		s += i * i % 7
	}
	return s
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: goparent CHILD [ARGS...]")
		os.Exit(2)
	}
	terminate := make(chan os.Signal, 1)
	signal.Notify(terminate, syscall.SIGTERM)
	child := exec.Command(os.Args[1], os.Args[2:]...)
	child.Stdout, child.Stderr = os.Stderr, os.Stderr
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("started")
	done := make(chan error, 1)
	go func() { done <- child.Wait() }()
	for {
		select {
		case err := <-done:
			if err != nil {
				fmt.Fprintln(os.Stderr, "child:", err)
				os.Exit(1)
			}
			return
		case <-terminate:
			child.Process.Kill()
			<-done
			return
		default:
			sink += spin(100000)
		}
	}
}
