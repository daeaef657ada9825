// Package page reads the usage preferences a page states about itself
// (package aipref's page carriers): its Content-Usage response header
// (draft-ietf-aipref-attach), its TDMRep header or meta (W3C TDMRep CG
// report), and noai and noimageai, from the page's policy as robotsmeta
// reads it. It is apart from package aipref so that the robots.txt verdict,
// which combines robots.txt's statements only, needs no HTML parser.
package page

import (
	"strings"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/robotsmeta"
)

// Evidence returns the usage statements of a page's policy (robotsmeta): its
// Content-Usage header, its TDMRep reservation (meta over header, as
// TDMRep says), and noai and noimageai.
func Evidence(pol *robotsmeta.Policy) []aipref.Evidence {
	if pol == nil || pol.Page() == nil {
		return nil
	}
	pg := pol.Page()
	var out []aipref.Evidence
	if pg.ContentUsage != nil {
		src := robotsmeta.Source{}
		for _, s := range pg.Sources {
			if s.Kind == robotsmeta.FromHeader && strings.EqualFold(s.Name, "Content-Usage") {
				src = s
				break
			}
		}
		for _, c := range aipref.Categories() {
			if v, ok := pg.ContentUsage[string(c)]; ok {
				out = append(out, aipref.Evidence{Carrier: aipref.HeaderContentUsage, Category: c, Pref: pref(v),
					Line: src.Line, Where: src.String(), Value: src.Value})
			}
		}
	}
	if pol.TDMReservation != robotsmeta.TDMUnset {
		if why, ok := pol.Why(robotsmeta.FieldTDMReservation); ok {
			carrier := aipref.TDMRepHeader
			if why.Source.Kind == robotsmeta.FromMeta {
				carrier = aipref.TDMRepMeta
			}
			out = append(out, aipref.Reservation(carrier, pol.TDMReservation == robotsmeta.TDMReserved, why.Source.Line, why.Source.String(), why.Source.Value)...)
		}
	}
	for _, d := range []struct {
		on      bool
		f       robotsmeta.Field
		carrier aipref.Carrier
		scope   string
	}{{pol.NoAI, robotsmeta.FieldNoAI, aipref.RobotsNoAI, ""}, {pol.NoImageAI, robotsmeta.FieldNoImageAI, aipref.RobotsNoImageAI, "images"}} {
		if !d.on {
			continue
		}
		e := aipref.Evidence{Carrier: d.carrier, Pref: aipref.Disallowed, Value: string(d.carrier), Scope: d.scope}
		if why, ok := pol.Why(d.f); ok {
			e.Line, e.Where, e.Value = why.Source.Line, why.Source.String(), why.Source.Value
		}
		for _, c := range []aipref.Category{aipref.TrainAI, aipref.AIUse} {
			e.Category = c
			out = append(out, e)
		}
	}
	return out
}

// pref reads a Content-Usage token: y allows, n disallows.
func pref(v string) aipref.Pref {
	switch v {
	case "y":
		return aipref.Allowed
	case "n":
		return aipref.Disallowed
	}
	return aipref.Unknown
}
