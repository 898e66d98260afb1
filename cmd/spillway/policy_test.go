package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

func TestLoadPolicy(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "env.toml")
	flagFile := filepath.Join(dir, "flag.toml")
	os.WriteFile(envFile, []byte("profile = \"pipe\"\n[read]\nmax_lines = 300\n"), 0o600)
	os.WriteFile(flagFile, []byte("[read]\nmax_lines = 400\n"), 0o600)

	tests := []struct {
		name    string
		flags   globalFlags
		env     string
		profile string
		strat   output.Strategy
		lines   int
		format  spillway.Format
	}{
		{"defaults", globalFlags{format: "text"}, "", "default", output.HeadTail, 2000, spillway.FormatText},
		{"--profile", globalFlags{profile: "pi", format: "text"}, "", "pi", output.Tail, 2000, spillway.FormatText},
		{"$SPILLWAY_CONFIG", globalFlags{format: "text"}, envFile, "pipe", output.Tail, 300, spillway.FormatText},
		{"--config wins over $SPILLWAY_CONFIG", globalFlags{config: flagFile, format: "json"}, envFile, "default", output.HeadTail, 400, spillway.FormatJSON},
		{"--profile wins over the file's profile", globalFlags{profile: "zdx", format: "text"}, envFile, "zdx", output.Head, 300, spillway.FormatText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(configEnv, tt.env)
			p, err := tt.flags.loadPolicy()
			if err != nil {
				t.Fatal(err)
			}
			f, _ := tt.flags.resultFormat()
			if p.Profile != tt.profile || p.Bash.Stdout.Strategy != tt.strat || p.Read.MaxLines != tt.lines || f != tt.format {
				t.Errorf("got profile %s, strategy %s, read lines %d, format %s; want %s, %s, %d, %s",
					p.Profile, p.Bash.Stdout.Strategy, p.Read.MaxLines, f, tt.profile, tt.strat, tt.lines, tt.format)
			}
		})
	}
}

func TestLoadPolicyErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[grep]\nlimit = -1\n"), 0o600)
	tests := []struct {
		name  string
		flags globalFlags
		env   string
		want  string
	}{
		{"bad file from the flag", globalFlags{config: bad}, "", bad + ":2: grep.limit: must be at least 1, not -1"},
		{"bad file from the environment", globalFlags{}, bad, bad + ":2: grep.limit"},
		{"missing file", globalFlags{config: filepath.Join(dir, "nope.toml")}, "", "nope.toml"},
		{"bad profile", globalFlags{profile: "cursor"}, "", `unknown profile "cursor"`},
		{"bad format", globalFlags{format: "xml"}, "", `--format: format "xml": want text or json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(configEnv, tt.env)
			_, err := tt.flags.loadPolicy()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// Without --config or $SPILLWAY_CONFIG, ~/.config/spillway/config.toml
// ($XDG_CONFIG_HOME's) is the config file when it exists.
func TestDefaultConfigPath(t *testing.T) {
	cli := newBashCLI(t)
	home := t.TempDir()
	dir := filepath.Join(home, ".config", "spillway")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[read]\nmax_lines = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, "f.txt")
	os.WriteFile(file, []byte("1\n2\n3\n4\n5\n"), 0o644)
	cli.env = append(slices.DeleteFunc(slices.Clone(cli.env), func(e string) bool {
		return strings.HasPrefix(e, "SPILLWAY_CONFIG=") || strings.HasPrefix(e, "XDG_CONFIG_HOME=")
	}), "HOME="+home)
	r := cli.run(t, "read", file)
	if !strings.Contains(r.stdout, "Showing lines 1-3 of 5") {
		t.Errorf("read with ~/.config/spillway/config.toml setting read.max_lines = 3:\n%s%s", r.stdout, r.stderr)
	}
}

// TestProfileFlagListsTheProfiles: --profile's help is the list of
// profiles itself, so that a new profile shows there.
func TestProfileFlagListsTheProfiles(t *testing.T) {
	f := newRootCmd().PersistentFlags().Lookup("profile")
	if f == nil {
		t.Fatal("no --profile flag")
	}
	if want := ": " + strings.Join(policy.ProfileNames(), ", "); !strings.HasSuffix(f.Usage, want) {
		t.Errorf("--profile's usage %q, want it to end in the list %q", f.Usage, want)
	}
}
