package output

import "testing"

// A snapshot of a stream still being written shows its unfinished last
// line (a prompt, a progress bar), which is not yet part of the window.
func TestSnapshotShowsUnfinishedLine(t *testing.T) {
	p := New(Options{Limits: DefaultLimits})
	p.Write([]byte("building\n10%\r20%\r30%"))
	r := p.Cut()
	if r.Unfinished != "30%" {
		t.Fatalf("Unfinished = %q, want %q", r.Unfinished, "30%")
	}
	if got, want := r.Text(), "building\n30%"; got != want {
		t.Fatalf("Text() = %q, want %q", got, want)
	}
	if r.Truncation.TotalLines != 1 || r.Truncation.OutputBytes != int64(len("building\n")) {
		t.Fatalf("the unfinished line was counted in the window: %+v", r.Truncation)
	}

	p.Write([]byte("\r100%\nPassword: "))
	r = p.Cut()
	if r.Head != "100%\n" || r.Unfinished != "Password: " {
		t.Fatalf("second window: Head %q Unfinished %q", r.Head, r.Unfinished)
	}

	p.Close()
	r = p.Result()
	if r.Unfinished != "" || r.Head != "Password: " {
		t.Fatalf("after Close: Head %q Unfinished %q, want the line in the window", r.Head, r.Unfinished)
	}
}

// The unfinished line a snapshot shows is bounded and whole UTF-8.
func TestSnapshotUnfinishedIsBounded(t *testing.T) {
	p := New(Options{Limits: DefaultLimits})
	long := make([]byte, 0, 30000)
	for len(long) < 30000-3 {
		long = append(long, "é"...)
	}
	p.Write(long)
	r := p.Result()
	if len(r.Unfinished) > maxUnfinished || len(r.Unfinished) < maxUnfinished-3 {
		t.Fatalf("Unfinished is %d bytes, want about %d", len(r.Unfinished), maxUnfinished)
	}
	if r.Unfinished[0] == 0xa9 { // a continuation byte of é
		t.Fatalf("Unfinished starts inside a character")
	}
}
