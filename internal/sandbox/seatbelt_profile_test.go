package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The Seatbelt profile is compared with golden files, on every platform.
// Run with -update to rewrite them after a deliberate change, and read
// the diff.
func TestSeatbeltProfileGolden(t *testing.T) {
	cases := []struct {
		name   string
		rules  Rules
		params []string
	}{
		{"writable", Rules{Writable: []string{"/Users/me/project", "/private/var/folders/xy/T/spillway-1-abc/tmp"}},
			[]string{"-DWRITABLE_0=/Users/me/project", "-DWRITABLE_1=/private/var/folders/xy/T/spillway-1-abc/tmp"}},
		{"no-network", Rules{Writable: []string{"/Users/me/project"}, NoNetwork: true},
			[]string{"-DWRITABLE_0=/Users/me/project"}},
		{"nothing-writable", Rules{Writable: []string{""}}, nil},
		{"deny-exec", Rules{Writable: []string{"/Users/me/project"}, DenyExec: []string{"/bin/rm", "/usr/local/Cellar/coreutils/9.5/bin/grm"}},
			[]string{"-DWRITABLE_0=/Users/me/project", "-DDENY_0=/bin/rm", "-DDENY_1=/usr/local/Cellar/coreutils/9.5/bin/grm"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			profile, params := SeatbeltProfile(c.rules)
			if !slices.Equal(params, c.params) {
				t.Errorf("params %q, want %q", params, c.params)
			}
			golden := filepath.Join("testdata", c.name+".sb")
			if *update {
				if err := os.WriteFile(golden, []byte(profile), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if profile != string(want) {
				t.Errorf("profile differs from %s:\n%s", golden, profile)
			}
		})
	}
}

// A path never enters the profile's text: one made of SBPL cannot add a
// rule.
func TestSeatbeltProfilePathsArePassedAsParameters(t *testing.T) {
	evil := `/tmp/x"))(allow file-write* (subpath "/`
	profile, params := SeatbeltProfile(Rules{Writable: []string{evil}})
	if strings.Contains(profile, evil) || strings.Contains(profile, `(subpath "/")`) {
		t.Errorf("the path reached the profile:\n%s", profile)
	}
	if len(params) != 1 || params[0] != "-DWRITABLE_0="+evil {
		t.Errorf("params %q", params)
	}
}

// Denying the network adds a rule and takes none away.
func TestSeatbeltNoNetworkOnlyAdds(t *testing.T) {
	open, _ := SeatbeltProfile(Rules{Writable: []string{"/a"}})
	closed, _ := SeatbeltProfile(Rules{Writable: []string{"/a"}, NoNetwork: true})
	if !strings.HasPrefix(closed, open) || !strings.Contains(closed[len(open):], "(deny network*)") || strings.Contains(open, "network") {
		t.Errorf("open:\n%s\nclosed:\n%s", open, closed)
	}
}
