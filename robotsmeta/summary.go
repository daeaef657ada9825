package robotsmeta

import "time"

// Summary is a Policy flattened to plain JSON values, with the keys of the
// conformance vectors' "expect" object: booleans mean allowed, null means
// no rule set the value. rep page -json prints it.
type Summary struct {
	Index            bool     `json:"index"`
	Follow           bool     `json:"follow"`
	Archive          bool     `json:"archive"`
	Snippet          bool     `json:"snippet"`
	MaxSnippet       *int     `json:"max_snippet"`
	MaxImagePreview  *string  `json:"max_image_preview"`
	MaxVideoPreview  *int     `json:"max_video_preview"`
	Translate        bool     `json:"translate"`
	ImageIndex       bool     `json:"imageindex"`
	UnavailableAfter *string  `json:"unavailable_after"`
	IndexIfEmbedded  bool     `json:"indexifembedded"`
	NoAI             bool     `json:"noai"`
	NoImageAI        bool     `json:"noimageai"`
	TDMReservation   *int     `json:"tdm_reservation"`
	AITrain          *string  `json:"ai_train"`
	NoSnippetText    []string `json:"nosnippet_text"`
	UnfollowedLinks  []string `json:"unfollowed_links"`
}

// Summary flattens the policy and its page's element-level findings.
func (p *Policy) Summary() Summary {
	s := Summary{
		Index: p.Index, Follow: p.Follow, Archive: p.Archive, Snippet: p.Snippet,
		Translate: p.Translate, ImageIndex: p.ImageIndex, IndexIfEmbedded: p.IndexIfEmbedded,
		NoAI: p.NoAI, NoImageAI: p.NoImageAI,
		NoSnippetText: []string{}, UnfollowedLinks: []string{},
	}
	if p.MaxSnippet.Set {
		s.MaxSnippet = &p.MaxSnippet.N
	}
	if p.MaxVideoPreview.Set {
		s.MaxVideoPreview = &p.MaxVideoPreview.N
	}
	if p.MaxImagePreview != PreviewUnset {
		v := p.MaxImagePreview.String()
		s.MaxImagePreview = &v
	}
	if !p.UnavailableAfter.IsZero() {
		v := p.UnavailableAfter.UTC().Format(time.RFC3339)
		s.UnavailableAfter = &v
	}
	if p.TDMReservation != TDMUnset {
		v := int(p.TDMReservation)
		s.TDMReservation = &v
	}
	if p.AITrain != PrefUnknown {
		v := p.AITrain.String()
		s.AITrain = &v
	}
	if p.page != nil {
		for _, r := range p.page.NoSnippet {
			s.NoSnippetText = append(s.NoSnippetText, r.Text)
		}
		for _, l := range p.page.Links {
			if !p.Followed(l) {
				s.UnfollowedLinks = append(s.UnfollowedLinks, l.Href)
			}
		}
	}
	return s
}
