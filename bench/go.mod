module github.com/rep-toolkit/rep/bench

go 1.26.0

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/rep-toolkit/rep v0.0.0
	github.com/slyrz/robots v0.0.0-20150806122829-7ebb2b6fc59f
	github.com/temoto/robotstxt v1.1.2
)

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/rep-toolkit/rep => ../
