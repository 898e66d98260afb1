package secret

import "slices"

// List returns the open pages, oldest first: the person's console shows
// them beside the pages' own addresses.
func (p *Pages) List() []*Page {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*Page, 0, len(p.pages))
	for _, pg := range p.pages {
		out = append(out, pg)
	}
	slices.SortFunc(out, func(a, b *Page) int { return a.expires.Compare(b.expires) })
	return out
}

// Shown is what the page shows: its request without what it does with
// the answer.
func (pg *Page) Shown() Request {
	r := pg.req
	r.Answer, r.Cancel = nil, nil
	return r
}

// Title is the page's first line: who asks, and whether it is verified.
func (pg *Page) Title() string { return title(pg.req) }
