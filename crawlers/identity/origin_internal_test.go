package identity

import "testing"

// TestOrigin: origin is scheme://host[:port] in lower case, "" for what
// has no scheme or no host or does not parse.
func TestOrigin(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://Agent.Bot.Goog", "https://agent.bot.goog"},
		{"https://agent.bot.goog:8443/x?y", "https://agent.bot.goog:8443"},
		{"agent.bot.goog", ""},
		{"//agent.bot.goog", ""},
		{"https:///path", ""},
		{"https://", ""},
		{"https://agent.bot.goog/%zz", ""},
		{"", ""},
	} {
		if got := origin(c.in); got != c.want {
			t.Errorf("origin(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
