module github.com/vaultline/vaultline-go

go 1.23
