package console

import (
	"errors"
	"testing"
	"time"
)

func question(cmd string) Question {
	return Question{Session: "s1", Command: cmd, Cwd: "/w", Env: "{}"}
}

// The page's answer reaches the waiting call once; a second answer, or
// one after the call withdrew the item, is refused as gone.
func TestHubAnswerReachesTheWaitingCall(t *testing.T) {
	h := NewHub(nil, false)
	h.AddSession(SessionInfo{ID: "s1"})
	p := h.Ask(question("make deploy"))
	if err := h.Answer(p.ID(), "maybe"); !errors.Is(err, ErrChoice) {
		t.Errorf("an unknown choice: %v", err)
	}
	if err := h.Answer(p.ID(), AllowOnce); err != nil {
		t.Fatal(err)
	}
	if a := <-p.Answered(); a.Choice != AllowOnce || a.Via != ViaConsole {
		t.Errorf("answer %+v", a)
	}
	if p.Withdraw() {
		t.Error("withdrew an answered item")
	}
	if err := h.Answer(p.ID(), Deny); !errors.Is(err, ErrGone) {
		t.Errorf("a second answer: %v", err)
	}
	q := h.Ask(question("make deploy"))
	if !q.Withdraw() {
		t.Error("could not withdraw an open item")
	}
	if err := h.Answer(q.ID(), AllowOnce); !errors.Is(err, ErrGone) {
		t.Errorf("an answer after the withdrawal: %v", err)
	}
	if st := h.Snapshot(ServerInfo{}, ""); len(st.Sessions) != 1 || len(st.Sessions[0].Items) != 0 {
		t.Errorf("items left on the page: %+v", st)
	}
}

// An item whose call gave up stays for Keep; an approval then applies
// once, to an identical question only; a deny grants nothing; past Keep
// the item is gone.
func TestHubGrantAppliesOnceToTheSameCall(t *testing.T) {
	now := time.Unix(1000, 0)
	h := NewHub(nil, true)
	h.now = func() time.Time { return now }
	h.AddSession(SessionInfo{ID: "s1"})
	p := h.Ask(question("make deploy"))
	if !p.GiveUp() {
		t.Fatal("gave up an answered item")
	}
	if err := h.Answer(p.ID(), AllowSession); err != nil {
		t.Fatal(err)
	}
	other := question("make deploy")
	other.Env = `{"X":"1"}`
	if _, ok := h.Granted(other); ok {
		t.Error("another environment got the grant")
	}
	if a, ok := h.Granted(question("make deploy")); !ok || a.Choice != AllowSession || a.Via != ViaUnsandboxed {
		t.Errorf("grant %+v %v", a, ok)
	}
	if _, ok := h.Granted(question("make deploy")); ok {
		t.Error("the grant applied twice")
	}
	d := h.Ask(question("rm -r build"))
	d.GiveUp()
	if err := h.Answer(d.ID(), Deny); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Granted(question("rm -r build")); ok {
		t.Error("a deny granted something")
	}
	late := h.Ask(question("make clean"))
	late.GiveUp()
	now = now.Add(Keep + time.Second)
	if err := h.Answer(late.ID(), AllowOnce); !errors.Is(err, ErrGone) {
		t.Errorf("an answer past Keep: %v", err)
	}
}

// A serve's sessions are seen only by a console presenting the
// credential they were opened with.
func TestHubCredentialScopesSessions(t *testing.T) {
	h := NewHub(nil, false)
	h.SetCredential("token-a")
	h.AddSession(SessionInfo{ID: "a"})
	p := h.Ask(Question{Session: "a", Command: "x"})
	if st := h.Snapshot(ServerInfo{}, "token-b"); len(st.Sessions) != 0 {
		t.Errorf("another credential sees %+v", st.Sessions)
	}
	if h.itemVisible(p.ID(), "") || h.itemVisible(p.ID(), "token-b") {
		t.Error("another credential may answer")
	}
	if st := h.Snapshot(ServerInfo{}, "token-a"); len(st.Sessions) != 1 || !h.itemVisible(p.ID(), "token-a") {
		t.Errorf("its own credential: %+v", st.Sessions)
	}
}
