package policy

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

func TestForCall(t *testing.T) {
	def := output.DefaultLimits
	// opencode's stream: 500 + 500 lines shown once 2000 are passed.
	oc := output.Limits{Strategy: output.HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 50 * 1024, ShownLines: 1000}
	tests := []struct {
		name                     string
		lim                      output.Limits
		maxLines, maxBytes       int
		full                     bool
		lines, bytes, chars, shw int
	}{
		{"nothing given keeps the policy", def, 0, 0, false, 2000, 51200, 2000, 0},
		{"max_bytes of 1 GiB is held to the ceiling", def, 0, 1 << 30, false, 2000, StreamCeiling, 2000, 0},
		{"max_lines past the ceiling", def, 1 << 40, 0, false, LinesCeiling, 51200, 2000, 0},
		{"smaller limits", def, 10, 100, false, 10, 100, 2000, 0},
		{"negative means not given", def, -1, -1, false, 2000, 51200, 2000, 0},
		{"full_output", def, 0, 0, true, LinesCeiling, StreamCeiling, 0, 0},
		{"full_output wins over max_bytes", def, 5, 1 << 30, true, LinesCeiling, StreamCeiling, 0, 0},
		{"opencode keeps 500+500 without max_lines", oc, 0, 4096, false, 2000, 4096, 0, 1000},
		{"opencode max_lines sets the shown lines too", oc, 3000, 0, false, 3000, 51200, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ForCall(tt.lim, tt.maxLines, tt.maxBytes, tt.full)
			if l.MaxLines != tt.lines || l.MaxBytes != tt.bytes || l.MaxLineChars != tt.chars || l.ShownLines != tt.shw {
				t.Errorf("got lines %d bytes %d chars %d shown %d, want %d %d %d %d",
					l.MaxLines, l.MaxBytes, l.MaxLineChars, l.ShownLines, tt.lines, tt.bytes, tt.chars, tt.shw)
			}
			if err := l.Validate(); err != nil {
				t.Error(err)
			}
			if l.Strategy != tt.lim.Strategy || l.HeadShare != tt.lim.HeadShare {
				t.Error("ForCall changed more than the limits")
			}
		})
	}
	if def.MaxBytes != 51200 {
		t.Error("ForCall changed the limits it was called on")
	}
	// A 1 GiB max_bytes through the pipeline: 3 MiB of output shows 1 MiB.
	l := ForCall(def, 0, 1<<30, false)
	l.MaxLines = LinesCeiling
	pl := output.New(output.Options{Limits: l})
	line := strings.Repeat("x", 1023) + "\n"
	for range 3 << 10 {
		pl.Write([]byte(line))
	}
	pl.Close()
	if r := pl.Result(); r.Truncation.OutputBytes > StreamCeiling || r.Truncation.TotalBytes != 3<<20 {
		t.Errorf("showed %d of %d bytes, want at most %d", r.Truncation.OutputBytes, r.Truncation.TotalBytes, StreamCeiling)
	}
}

func TestWithMaxTokens(t *testing.T) {
	for _, tt := range []struct{ given, want int }{{0, 7}, {-1, 7}, {100, 100}, {1 << 30, StreamCeiling}} {
		if got := WithMaxTokens(output.Limits{MaxTokens: 7}, tt.given).MaxTokens; got != tt.want {
			t.Errorf("max_tokens %d: %d, want %d", tt.given, got, tt.want)
		}
	}
	// After full_output, the tokens asked for hold.
	if l := WithMaxTokens(ForCall(output.DefaultLimits, 0, 0, true), 500); l.MaxTokens != 500 {
		t.Errorf("full_output then max_tokens: %d", l.MaxTokens)
	}
}

func TestLimit(t *testing.T) {
	for _, tt := range []struct{ v, def, want int }{
		{0, 2000, 2000}, {-3, 1000, 1000}, {10, 2000, 10}, {200, 100, 200}, {1 << 30, 500, LinesCeiling},
	} {
		if got := Limit(tt.v, tt.def); got != tt.want {
			t.Errorf("Limit(%d, %d) = %d, want %d", tt.v, tt.def, got, tt.want)
		}
	}
}
