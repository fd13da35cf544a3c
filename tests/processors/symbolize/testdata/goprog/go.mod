module proflow.test/goprog

go 1.19
