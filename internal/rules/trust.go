package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Trust says whose projects' allow entries count. A project's own rule
// files (.claude/settings.json, .claude/settings.local.json,
// .codex/rules/*.rules, and a spillway config inside it) are written by
// whoever wrote the repository, or by the commands an agent ran there:
// their deny and ask entries always count, their allow entries only
// once the person trusts the project, and only while those files are
// what they were then.
type Trust struct {
	// Trusted are the folders the person's own config trusts
	// ([rules] trusted_projects): a project at or under one is trusted
	// as its rule files are when first seen.
	Trusted []string
	// StateFile is spillway's state file, where each trust is kept with
	// the hash of the project's rule files; "" keeps none, and then
	// only Trusted counts, without a hash.
	StateFile string
	// Writable are the directories commands may write: a state file
	// under one of them is not used, since a command could trust a
	// project by writing it.
	Writable []string
	// ProjectFiles are more of the project's rule files to hash (a
	// spillway config inside it).
	ProjectFiles []string
}

// DefaultStateFile is spillway's state file under home: in
// $XDG_STATE_HOME, else ~/.local/state.
func DefaultStateFile(home string) string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "spillway", "state.json")
}

// state is the state file's content.
type state struct {
	Projects map[string]grant `json:"projects"`
}

// A grant is the person's trust in one project.
type grant struct {
	// Hash is ProjectHash of the project when it was trusted.
	Hash string `json:"hash"`
	// Via says how: "config" (trusted_projects, first seen), "tty"
	// (spillway rules trust), "form", "console".
	Via string    `json:"via"`
	At  time.Time `json:"at"`
}

// projectTrust is the decision on one import's project: why its allow
// entries do not count, or "".
type projectTrust struct {
	why string
	// how is the short form for a decision's reason: why the project's
	// allow entries are suspended and how the person trusts it.
	how string
}

// usable says why the state file cannot be used, or "".
func (t Trust) usable() string {
	if t.StateFile == "" {
		return "no state file"
	}
	if !filepath.IsAbs(t.StateFile) {
		return "the state file " + t.StateFile + " is not an absolute path"
	}
	for _, w := range t.Writable {
		if w != "" && within(t.StateFile, w) {
			return "the state file " + t.StateFile + " is under " + w + ", which commands may write"
		}
	}
	return ""
}

// within reports whether path is dir or under it, symbolic links of
// either resolved where they can be.
func within(path, dir string) bool {
	path, dir = resolved(path), resolved(dir)
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// resolved is path with its symbolic links resolved, as far as it
// exists.
func resolved(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	dir, base := filepath.Split(path)
	if dir == "" || filepath.Clean(dir) == path {
		return path
	}
	return filepath.Join(resolved(filepath.Clean(dir)), base)
}

// decide decides whether the project at.Cwd is trusted.
func (t Trust) decide(at Places) *projectTrust {
	dir := resolved(at.Cwd)
	hash := ProjectHash(dir, t.ProjectFiles)
	byConfig := slices.ContainsFunc(t.Trusted, func(d string) bool { return d != "" && within(dir, expandHome(d, at.Home)) })
	if why := t.usable(); why != "" {
		if byConfig {
			return &projectTrust{}
		}
		return &projectTrust{why: "the project " + dir + " is not trusted (" + why + ": add it to [rules] trusted_projects)",
			how: fmt.Sprintf("the project is not trusted (%s); trust it with [rules] trusted_projects = [%q]", why, dir)}
	}
	st, err := readState(t.StateFile)
	if err != nil {
		why := fmt.Sprintf("the project %s cannot be checked: %v", dir, err)
		return &projectTrust{why: why, how: fmt.Sprintf("the project's trust cannot be checked (%v); fix the state file, then trust it with spillway rules trust %s", err, dir)}
	}
	g, ok := st.Projects[dir]
	switch {
	case ok && g.Hash == hash:
		return &projectTrust{}
	case ok:
		return &projectTrust{why: fmt.Sprintf("the project %s was trusted (%s, %s) but its rule files changed since: run spillway rules trust in it to trust it again", dir, g.Via, g.At.Format(time.DateOnly)),
			how: "the project's rule files changed since it was trusted; trust it again with spillway rules trust " + dir}
	case byConfig:
		// First seen since the config trusted it: its files as they
		// are now are what is trusted.
		if err := saveGrant(t.StateFile, dir, grant{Hash: hash, Via: "config", At: time.Now().UTC()}); err != nil {
			return &projectTrust{why: fmt.Sprintf("the project %s is in trusted_projects, but its trust cannot be kept: %v", dir, err),
				how: fmt.Sprintf("the project is in trusted_projects, but its trust cannot be kept (%v)", err)}
		}
		return &projectTrust{}
	}
	return &projectTrust{why: "the project " + dir + " is not trusted: run spillway rules trust in it, or add it to [rules] trusted_projects",
		how: "the project is not trusted; trust it with spillway rules trust " + dir}
}

// Grant trusts the project dir as its rule files are now, in the state
// file; via says through which channel the person answered.
func Grant(t Trust, dir, via string) error {
	if why := t.usable(); why != "" {
		return errors.New(why)
	}
	dir = resolved(dir)
	return saveGrant(t.StateFile, dir, grant{Hash: ProjectHash(dir, t.ProjectFiles), Via: via, At: time.Now().UTC()})
}

// GrantShown trusts the project dir as its rule files were when they
// were shown to the person: hash is CurrentHash then. Should they have
// changed since, the grant does not match them, and their allow
// entries stay suspended: the person trusts only what they saw.
func GrantShown(t Trust, dir, via, hash string) error {
	if why := t.usable(); why != "" {
		return errors.New(why)
	}
	return saveGrant(t.StateFile, resolved(dir), grant{Hash: hash, Via: via, At: time.Now().UTC()})
}

// CurrentHash is ProjectHash of the project dir as t reads it now.
func CurrentHash(t Trust, dir string) string { return ProjectHash(resolved(dir), t.ProjectFiles) }

// Revoke removes the trust in project dir.
func Revoke(t Trust, dir string) error {
	if why := t.usable(); why != "" {
		return errors.New(why)
	}
	return updateState(t.StateFile, func(st *state) { delete(st.Projects, resolved(dir)) })
}

// ProjectHash is the hash of a project's rule files: each file's name
// and content (or that it is absent, or what else it is), so that any
// change to any of them, a new one included, changes it.
func ProjectHash(dir string, extra []string) string {
	h := sha256.New()
	files := projectClaudeFiles(dir)
	codexDir := projectCodexDir(dir)
	if names, err := codexNames(codexDir); err != nil {
		fmt.Fprintf(h, "%s\x00error %v\x00", codexDir, err)
	} else {
		for _, n := range names {
			files = append(files, filepath.Join(codexDir, n))
		}
	}
	files = append(files, extra...)
	for _, f := range files {
		data, err := readRuleFile(f, MaxRuleFileBytes)
		switch {
		case err == errAbsent:
			fmt.Fprintf(h, "%s\x00absent\x00", f)
		case err != nil:
			fmt.Fprintf(h, "%s\x00error %v\x00", f, err)
		default:
			fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
			h.Write(data)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func expandHome(p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return p
}

func readState(name string) (*state, error) {
	st := &state{Projects: map[string]grant{}}
	data, err := readRuleFile(name, MaxRuleFileBytes)
	if err == errAbsent {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s: %v", name, err)
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("state file %s: not spillway's state: %v", name, err)
	}
	if st.Projects == nil {
		st.Projects = map[string]grant{}
	}
	return st, nil
}

func saveGrant(name, dir string, g grant) error {
	return updateState(name, func(st *state) { st.Projects[dir] = g })
}

// updateState changes the state file by f, written whole to a new file
// that replaces it, readable by the person only.
func updateState(name string, f func(*state)) error {
	st, err := readState(name)
	if err != nil {
		return err
	}
	f(st)
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".state-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	return nil
}

// Decide says why the project at.Cwd's allow entries do not count, or ""
// when the person trusts it.
func (t Trust) Decide(at Places) string { return t.decide(at).why }

// Suspend says, when the project at.Cwd is not trusted, why its allow
// entries do not count (why, for a note) and how a decision that one
// of them would have allowed says so (how); both "" when it is trusted.
func (t Trust) Suspend(at Places) (why, how string) {
	pt := t.decide(at)
	return pt.why, pt.how
}

// SuspendedRule is an allow rule of an untrusted project, kept aside
// for Set.Suspended: its Justification is the whole reason a decision
// gives when the rule would have allowed a part.
func SuspendedRule(r Rule, how string) Rule {
	r.Justification = "allow entry " + r.Text + " from " + r.Source + " is suspended: " + how
	return r
}

// SuspendedFileRule is SuspendedRule for a file rule (a Read, Edit or
// Write allow entry).
func SuspendedFileRule(r FileRule, how string) FileRule {
	r.Justification = "allow entry " + r.Text + " from " + r.Source + " is suspended: " + how
	return r
}

// Within reports whether path is dir or under it, symbolic links of
// either resolved where they can be.
func Within(path, dir string) bool { return within(path, dir) }
