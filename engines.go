package spillway

import (
	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
)

// The engines take the policy's values: read, ls, grep and find their
// tool's policy as it is (package tool declares them for both), the spill
// store and the shell configs built here from it.

// storeConfig configures the spill store.
func (s SpillPolicy) storeConfig() spill.Config {
	return spill.Config{TempDir: s.Dir, MaxFileBytes: s.MaxBytes, BudgetBytes: s.BudgetBytes, KeepNamed: s.KeepNamed}
}

// filesConfig is what read and ls take of the policy; New adds the
// session's cwd, store and root.
func (p Policy) filesConfig() files.Config {
	return files.Config{Read: p.Read, Ls: p.Ls}
}

// searchConfig is what grep and find take of the policy; New adds the
// session's cwd, store and root.
func (p Policy) searchConfig() search.Config {
	return search.Config{Grep: p.Grep, Find: p.Find}
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
		Bash:              p.Bash,
		CacheCommands:     p.Cache.Commands,
		CacheTTL:          p.Cache.TTL,
		SecretTrust:       shell.SecretTrust{Trusted: p.Secrets.Trusted, Refuse: p.Secrets.Unverified == "refuse"},
		Render:            bashText,
	}
}
