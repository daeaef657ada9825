module github.com/rep-toolkit/rep/bench

go 1.26.0

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/rep-toolkit/rep v0.0.0
	github.com/slyrz/robots v0.0.0-20150806122829-7ebb2b6fc59f
	github.com/temoto/robotstxt v1.1.2
)

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/bits-and-blooms/bitset v1.24.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/nlnwa/gowarc/v2 v2.2.4 // indirect
	github.com/nlnwa/whatwg-url v0.6.2 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/parquet-go/parquet-go v0.32.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)

replace github.com/rep-toolkit/rep => ../
