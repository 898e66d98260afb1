package spillway

import (
	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// The engines take values of their own, built here from the policy: the
// pipeline's output.Limits for each tool, the spill store's config, the
// shell's settings.

// storeConfig configures the spill store.
func (s SpillPolicy) storeConfig() spill.Config {
	return spill.Config{TempDir: s.Dir, MaxFileBytes: s.MaxBytes, BudgetBytes: s.BudgetBytes, KeepNamed: s.KeepNamed}
}

// limits are a read page's: the head of the file.
func (r ReadPolicy) limits() output.Limits {
	return output.Limits{Strategy: output.Head, MaxLines: r.MaxLines, MaxBytes: r.MaxBytes, MaxLineChars: r.MaxLineChars, MaxTokens: r.MaxTokens}
}

// limits are a grep's: Limit matches are its lines.
func (g GrepPolicy) limits() output.Limits {
	return output.Limits{MaxLines: g.Limit, MaxBytes: g.MaxBytes, MaxLineChars: g.MaxLineChars, MaxTokens: g.MaxTokens}
}

// limits are a find's: Limit results are its lines.
func (f FindPolicy) limits() output.Limits {
	return output.Limits{MaxLines: f.Limit, MaxBytes: f.MaxBytes, MaxTokens: f.MaxTokens}
}

// limits are an ls's: Limit entries are its lines.
func (l LsPolicy) limits() output.Limits {
	return output.Limits{MaxLines: l.Limit, MaxBytes: l.MaxBytes, MaxTokens: l.MaxTokens}
}

// filesConfig is what read and ls take of the policy; New adds the
// session's cwd, store and root.
func (p Policy) filesConfig() files.Config {
	return files.Config{Read: p.Read.limits(), Ls: p.Ls.limits(), LineNumbers: p.Read.LineNumbers, NoPartialLines: p.Read.NoPartialLines}
}

// searchConfig is what grep and find take of the policy; New adds the
// session's cwd, store and root.
func (p Policy) searchConfig() search.Config {
	return search.Config{Grep: p.Grep.limits(), Find: p.Find.limits(), GrepNoTotal: p.Grep.NoTotal, FindNoTotal: p.Find.NoTotal}
}

// shellConfig is what the shell takes of the policy; New adds the
// session's cwd, environment, stores and sandbox.
func (p Policy) shellConfig() shell.Config {
	return shell.Config{
		Shell:             p.Shell,
		Timeout:           p.Timeout,
		MaxWait:           p.MaxWait,
		ResultBudget:      p.ResultBudget,
		ErrorResultBudget: p.ErrorResultBudget,
		Stdout:            p.Bash.Stdout,
		Stderr:            p.Bash.Stderr,
		MergeStreams:      p.Bash.MergeStreams,
		SpillWhen:         p.Bash.SpillWhen,
		Binary:            p.Bash.Binary,
		Shapes:            p.Bash.Shapes,
		MaxProcesses:      p.Bash.MaxProcesses,
		CacheCommands:     p.Cache.Commands,
		CacheTTL:          p.Cache.TTL,
		SecretTrust:       shell.SecretTrust{Trusted: p.Secrets.Trusted, Refuse: p.Secrets.Unverified == "refuse"},
		Render:            bashText,
	}
}
