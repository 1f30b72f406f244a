.PHONY: build test quickstart
build:
	go build -o bin/benchpress ./cmd/benchpress
test:
	bash scripts/test.sh
quickstart:
	go run ./cmd/benchpress quickstart
