//go:build !race

package robotsmeta

const raceEnabled = false
