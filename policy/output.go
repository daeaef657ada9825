package policy

// Output is one file Build produces.
type Output struct {
	Name string // file name, e.g. "robots.txt", "nginx.conf"
	Data []byte
}

// Outputs returns every file the policy builds.
func (p *Policy) Outputs() []Output {
	return []Output{{"robots.txt", p.RobotsTxt()}}
}
