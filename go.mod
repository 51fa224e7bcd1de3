module github.com/hipdnn-go/backend

go 1.26
