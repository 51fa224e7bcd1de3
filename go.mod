module github.com/hipdnn-go/backend

go 1.26

require (
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/mattn/go-pointer v0.0.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	go.uber.org/zap v1.28.0 // indirect
)
