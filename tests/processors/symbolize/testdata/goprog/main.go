// Go workload for the symbolize tests, built with `go build` at test time.
package main

import "fmt"

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func main() { fmt.Println(fib(20)) }
