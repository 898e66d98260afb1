package config

import (
	"errors"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"reflect"
	"testing"
)

// FuzzParseConfig feeds random documents to the config parser (starting corpus
// in testdata/fuzz/FuzzParseConfig). Properties:
//   - it never panics;
//   - a rejected document gets errors that each name the file and a line;
//   - an accepted document gives a policy that validates, within the hard
//     ceilings, and that round-trips through ConfigTOML.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(everyKey))
	f.Add([]byte("profile = \"opencode\"\n[bash]\nmax_lines = 3000\n"))
	f.Add([]byte("bash = { stdout = { max_lines = -3 } }\n"))
	f.Add([]byte("[bash]\nhead_share = nan\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		cfg, err := ParseConfig("fuzz.toml", doc)
		if err != nil {
			checkErrors(t, err)
			return
		}
		p, err := spillway.Profile(cfg.Profile())
		if err != nil {
			t.Fatalf("accepted an unknown profile: %v", err)
		}
		cfg.Apply(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted a policy that does not validate: %v\n%s", err, doc)
		}
		for _, v := range []int{p.Bash.Stdout.MaxBytes, p.Bash.Stderr.MaxBytes, p.Read.MaxBytes, p.Grep.MaxBytes, p.Find.MaxBytes, p.Ls.MaxBytes} {
			if v > policy.StreamCeiling {
				t.Fatalf("max_bytes %d past the ceiling", v)
			}
		}
		for _, v := range []int{p.Bash.Stdout.MaxLines, p.Bash.Stderr.MaxLines, p.Read.MaxLines, p.Grep.Limit, p.Find.Limit, p.Ls.Limit} {
			if v > policy.LinesCeiling {
				t.Fatalf("lines %d past the ceiling", v)
			}
		}
		out, err := TOML(p)
		if err != nil {
			t.Fatalf("ConfigTOML: %v", err)
		}
		cfg2, err := ParseConfig("again.toml", out)
		if err != nil {
			t.Fatalf("ConfigTOML wrote a file the parser rejects: %v\n%s", err, out)
		}
		q, _ := spillway.Profile(cfg2.Profile())
		cfg2.Apply(&q)
		// Where the rules were written is no value of the policy.
		p.Rules.Sources, q.Rules.Sources = nil, nil
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", q, p)
		}
	})
}

// checkErrors: every error names the file and a line.
func checkErrors(t *testing.T, err error) {
	t.Helper()
	var all []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	} else {
		all = []error{err}
	}
	for _, e := range all {
		var ce *ConfigError
		if !errors.As(e, &ce) {
			t.Fatalf("error %q (%T) is not a *ConfigError", e, e)
		}
		if ce.File != "fuzz.toml" || ce.Line < 1 {
			t.Fatalf("error %q names no line", e)
		}
	}
}
