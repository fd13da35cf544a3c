module proflow.test/pprofapp

go 1.19
