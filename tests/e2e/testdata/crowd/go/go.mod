module proflow.test/crowd

go 1.19
