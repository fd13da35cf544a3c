module proflow.test/goparent

go 1.19
