//go:build race

package robotsmeta

// raceEnabled shrinks the 50 MB streaming test under the race detector,
// which slows the tokenizer about fifteenfold; the test logs the size used.
const raceEnabled = true
