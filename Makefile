.PHONY: build test quickstart
build:
	CGO_ENABLED=0 go build -o bin/benchpress ./cmd/benchpress
test:
	bash scripts/test.sh
quickstart:
	go run ./cmd/benchpress quickstart
