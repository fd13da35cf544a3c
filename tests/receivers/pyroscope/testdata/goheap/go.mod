module proflow.test/goheap

go 1.19
