package rep

import "github.com/rep-toolkit/rep/internal/wire"

// wireForm is the one URL form rep matches against robots.txt (see package
// internal/wire): rawurl as it goes on the wire, and with escapes of
// unreserved characters decoded when it holds any.
func wireForm(rawurl string) (string, string) { return wire.Form(rawurl) }
