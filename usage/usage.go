// Package usage is the former name of package aipref, kept so that code
// written against it compiles: every name here forwards to aipref's.
//
// Deprecated: use github.com/rep-toolkit/rep/aipref.
package usage

import "github.com/rep-toolkit/rep/aipref"

// Types, as aliases of aipref's.
type (
	Category    = aipref.Category
	Pref        = aipref.Pref
	PrefError   = aipref.PrefError
	Carrier     = aipref.Carrier
	Evidence    = aipref.Evidence
	Verdict     = aipref.Usage
	Usage       = aipref.Usage
	TDMRepRule  = aipref.TDMRepRule
	TDMRepError = aipref.TDMRepError
)

// Categories.
const (
	TrainAI = aipref.TrainAI
	AIUse   = aipref.AIUse
	Search  = aipref.Search
)

// Preferences.
const (
	Unknown    = aipref.Unknown
	Allowed    = aipref.Allowed
	Disallowed = aipref.Disallowed
)

// Carriers.
const (
	RobotsContentUsage  = aipref.RobotsContentUsage
	RobotsContentSignal = aipref.RobotsContentSignal
	HeaderContentUsage  = aipref.HeaderContentUsage
	TDMRepHeader        = aipref.TDMRepHeader
	TDMRepMeta          = aipref.TDMRepMeta
	TDMRepFile          = aipref.TDMRepFile
	RobotsNoAI          = aipref.RobotsNoAI
	RobotsNoImageAI     = aipref.RobotsNoImageAI
)

// Functions, as aipref's.
var (
	Categories  = aipref.Categories
	Combine     = aipref.Combine
	Robots      = aipref.Robots
	Reservation = aipref.Reservation
	ParseTDMRep = aipref.ParseTDMRep
	TDMRep      = aipref.TDMRep
)
