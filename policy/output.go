package policy

// Output is one file Outputs produces.
type Output struct {
	Name string // file name, e.g. "robots.txt", "nginx-http.conf"
	Data []byte
}

// Outputs returns every file the policy builds: robots.txt, then the
// configuration of each of Servers.
func (p *Policy) Outputs() []Output {
	out := []Output{{"robots.txt", p.RobotsTxt()}}
	for _, s := range Servers {
		out = append(out, Output{s.File, p.Config(s)})
	}
	return out
}
