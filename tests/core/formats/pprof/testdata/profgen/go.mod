module proflow.test/profgen

go 1.19
