package rules

import "testing"

// Each program is read one way: decide takes the first of runs, decide
// and the rest, and the rest notes the first of otherShell, runner and
// notes, so a name given two of them by two tables would lose one
// silently.
func TestProgramKindsReadOneWay(t *testing.T) {
	for name, k := range programKinds {
		ways := 0
		for _, set := range []bool{k.runs != nil, k.decide != nil} {
			if set {
				ways++
			}
		}
		if ways > 1 {
			t.Errorf("%s both runs a command and is decided by a function of its own", name)
		}
		notes := 0
		for _, set := range []bool{k.otherShell, k.runner != "", k.notes != nil} {
			if set {
				notes++
			}
		}
		if notes > 1 {
			t.Errorf("%s has %d notes of which decideProgram adds one", name, notes)
		}
		if k.shell && (k.runs != nil || k.notes != nil || k.otherShell) {
			t.Errorf("%s is a shell and something else", name)
		}
	}
	// Every program of readPrograms and of the wrappers is in the table
	// with its function.
	for name := range readPrograms {
		if k := programKinds[name]; k.runs == nil && k.decide == nil && k.notes == nil {
			t.Errorf("%s lost its function in programKinds", name)
		}
	}
	for name := range wrappers {
		if programKinds[name].runs == nil {
			t.Errorf("the wrapper %s does not run its command in programKinds", name)
		}
	}
}
