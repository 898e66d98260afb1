package output

import "testing"

func TestLastLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"Password: ", "Password:"},
		{"We trust you\n\n[sudo] password for u: ", "[sudo] password for u:"},
		{"Enter passphrase\n", "Enter passphrase"},
		{"one\ntwo\n\n  \n", "two"},
		{"\x1b[1mBold:\x1b[0m ", "Bold:"},
		{"10%\r20%\rPIN: ", "PIN:"},
	} {
		p := New(Options{})
		p.Write([]byte(c.in))
		if got := p.LastLine(); got != c.want {
			t.Errorf("LastLine after %q = %q, want %q", c.in, got, c.want)
		}
	}
}
