package robotstxt

// SetMultiThreshold lets the external tests run every index through the
// multi-pattern matcher (threshold -1) and compare it with the plain one.
func SetMultiThreshold(n int) (old int) {
	old, multiThreshold = multiThreshold, n
	return old
}
