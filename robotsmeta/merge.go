package robotsmeta

// Merge combines two observations of one URL — the raw HTML as fetched and
// the DOM serialised after JavaScript ran — into one Page. Google may skip
// rendering when the raw HTML says noindex, and honours a noindex that
// JavaScript adds, so rules from either observation apply (the notes'
// reading: union their negatives). Parse the rendered DOM without headers,
// or the header rules are counted twice (harmless for the verdict, noisy in
// sources). Links, snippet regions and Base come from the rendered
// observation, which is what a renderer follows; a TDMRep meta in it
// supersedes one in the raw HTML.
func Merge(raw, rendered *Page) *Page {
	m := &Page{
		Links: rendered.Links, NoSnippet: rendered.NoSnippet, NoContent: rendered.NoContent,
		Base: rendered.Base, Charset: raw.Charset, BytesRead: raw.BytesRead, Stop: raw.Stop,
		tdmHeader: raw.tdmHeader, tdmHeaderSrc: raw.tdmHeaderSrc,
		tdmMeta: raw.tdmMeta, tdmMetaSrc: raw.tdmMetaSrc,
		TDMPolicy: raw.TDMPolicy, ContentUsage: raw.ContentUsage, contentUsageSrc: raw.contentUsageSrc,
	}
	off := len(raw.Sources)
	m.Sources = append(append(m.Sources, raw.Sources...), rendered.Sources...)
	m.Rules = append(m.Rules, raw.Rules...)
	for _, r := range rendered.Rules {
		r.Source += off
		m.Rules = append(m.Rules, r)
	}
	m.Diagnostics = append(m.Diagnostics, raw.Diagnostics...)
	for _, d := range rendered.Diagnostics {
		if d.Source >= 0 {
			d.Source += off
		}
		m.Diagnostics = append(m.Diagnostics, d)
	}
	if rendered.tdmMeta != TDMUnset {
		m.tdmMeta, m.tdmMetaSrc = rendered.tdmMeta, rendered.tdmMetaSrc+off
		m.TDMPolicy = rendered.TDMPolicy
	} else if raw.tdmMeta == TDMUnset && rendered.tdmHeader != TDMUnset {
		m.tdmHeader, m.tdmHeaderSrc = rendered.tdmHeader, rendered.tdmHeaderSrc+off
	}
	if m.ContentUsage == nil && rendered.ContentUsage != nil {
		m.ContentUsage, m.contentUsageSrc = rendered.ContentUsage, rendered.contentUsageSrc+off
	}
	return m
}
