// Uploads one file from many concurrent clients with Go's net/http. Prints one line per client:
// "status <code> <Retry-After>" or "error <message>".
// Usage: crowd PORT TARGET FILE CLIENTS
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

func main() {
	port, target, path := os.Args[1], os.Args[2], os.Args[3]
	clients, err := strconv.Atoi(os.Args[4])
	if err != nil {
		panic(err)
	}
	body, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	client := &http.Client{Timeout: 120 * time.Second, Transport: &http.Transport{MaxConnsPerHost: 0}}
	url := "http://127.0.0.1:" + port + target
	lines := make([]string, clients)
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp, err := client.Post(url, "application/octet-stream", bytes.NewReader(body))
			if err != nil {
				lines[i] = "error " + err.Error()
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			retry := resp.Header.Get("Retry-After")
			if retry == "" {
				retry = "-"
			}
			lines[i] = fmt.Sprintf("status %d %s", resp.StatusCode, retry)
		}(i)
	}
	wg.Wait()
	for _, l := range lines {
		fmt.Println(l)
	}
}
