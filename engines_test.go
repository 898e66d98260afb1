package spillway

import (
	"reflect"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// The engines get every value of the policy that is theirs: each field
// the walk below sets to a value of its own shows up in what they take.
func TestEngineConfigsCarryThePolicy(t *testing.T) {
	p := Policy{
		Shell: "zsh", Timeout: 3 * time.Second, MaxWait: 4 * time.Second, ResultBudget: 5000, ErrorResultBudget: 6000,
		Spill: SpillPolicy{Dir: "/d", MaxBytes: 7, BudgetBytes: 8, KeepNamed: 9 * time.Second},
		Bash: BashPolicy{
			Stdout:       output.Limits{Strategy: output.Tail, MaxLines: 10, MaxBytes: 11},
			Stderr:       output.Limits{Strategy: output.Head, MaxLines: 12, MaxBytes: 13},
			MergeStreams: true, SpillWhen: output.SpillPastBytes, MaxProcesses: 14,
		},
		Read:  ReadPolicy{MaxLines: 15, MaxBytes: 16, MaxLineChars: 17, MaxTokens: 18, LineNumbers: true, NoPartialLines: true},
		Grep:  GrepPolicy{Limit: 19, MaxBytes: 20, MaxLineChars: 21, MaxTokens: 22, NoTotal: true},
		Find:  FindPolicy{Limit: 23, MaxBytes: 24, MaxTokens: 25, NoTotal: true},
		Ls:    LsPolicy{Limit: 26, MaxBytes: 27, MaxTokens: 28},
		Cache: CachePolicy{Commands: []string{"git status"}, TTL: 29 * time.Second},
	}
	sh, fc, sc := p.shellConfig(), p.filesConfig(), p.searchConfig()
	checks := []struct {
		name      string
		got, want any
	}{
		{"shell", sh.Shell, p.Shell},
		{"timeout", sh.Timeout, p.Timeout},
		{"max wait", sh.MaxWait, p.MaxWait},
		{"result budget", sh.ResultBudget, p.ResultBudget},
		{"error result budget", sh.ErrorResultBudget, p.ErrorResultBudget},
		{"bash", sh.Bash, p.Bash},
		{"cache commands", sh.CacheCommands, p.Cache.Commands},
		{"cache ttl", sh.CacheTTL, p.Cache.TTL},
		{"render", sh.Render != nil, true},
		{"store", p.Spill.storeConfig().TempDir + p.Spill.storeConfig().KeepNamed.String(), "/d9s"},
		{"store bytes", [2]int64{p.Spill.storeConfig().MaxFileBytes, p.Spill.storeConfig().BudgetBytes}, [2]int64{7, 8}},
		{"read", fc.Read, p.Read},
		{"ls", fc.Ls, p.Ls},
		{"grep", sc.Grep, p.Grep},
		{"find", sc.Find, p.Find},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
}
