//go:build linux && !spillway_portable

package sandbox

import (
	"reflect"
	"testing"
)

// Every flag the helper reads sets its own field, and a flag without its
// value, a bad number or an unknown flag is refused with its own message.
func TestParseHelperArgsEveryFlag(t *testing.T) {
	h, err := parseHelperArgs([]string{
		"-probe", "-deny-tcp", "-scope-signals", "-scope-abstract", "-seccomp", "-ns", "-hub", "-session", "-zygote", "-net",
		"-w", "/w1", "-hide", "/h", "-show", "/s", "-deny-exec", "/d", "-read", "/r", "-w", "/w2",
		"-nproc", "99", "-env-fd", "3", "-status-fd", "4", "-sock-fd", "5", "-uid", "6", "-gid", "7", "-keep-fds", "8",
		"--", "/bin/sh", "sh",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := helperArgs{
		probe: true, denyTCP: true, scopeSignals: true, scopeAbstract: true, seccomp: true, ns: true, hub: true, session: true, zygote: true, net: true,
		writable: []string{"/w1", "/w2"}, hide: []string{"/h"}, show: []string{"/s"}, denyExec: []string{"/d"}, read: []string{"/r"},
		nproc: 99, envFD: 3, statusFD: 4, sockFD: 5, uid: 6, gid: 7, keepFDs: 8,
		argv: []string{"/bin/sh", "sh"},
	}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("got  %+v\nwant %+v", h, want)
	}
	if h, err := parseHelperArgs([]string{"-probe", "--"}); err != nil || h.envFD != -1 || h.statusFD != -1 || h.sockFD != -1 || len(h.argv) != 0 {
		t.Fatalf("a bare probe: %+v %v", h, err)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"-w"}, "-w needs a path"},
		{[]string{"-read"}, "-read needs a path"},
		{[]string{"-uid"}, "-uid needs a value"},
		{[]string{"-nproc"}, "-nproc needs a value"},
		{[]string{"-uid", "x", "--", "/bin/sh", "sh"}, `-uid: strconv.Atoi: parsing "x": invalid syntax`},
		{[]string{"-nproc", "-1", "--", "/bin/sh", "sh"}, `-nproc: strconv.ParseUint: parsing "-1": invalid syntax`},
		{[]string{"-bogus"}, `unknown helper argument "-bogus"`},
		{[]string{"-bogus", "--", "/bin/sh", "sh"}, `unknown helper argument "-bogus"`},
		{[]string{"/bin/sh"}, `unknown helper argument "/bin/sh"`},
		{[]string{"-ns"}, "no -- before the command"},
		{[]string{"--", "/bin/sh"}, "no command after --"},
		{[]string{"-hub", "--"}, "the session sandbox needs -sock-fd"},
		{[]string{"-zygote", "-sock-fd", "3", "--"}, ""},
		{[]string{"-session", "--"}, ""},
	} {
		_, err := parseHelperArgs(c.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%q: error %q, want %q", c.args, got, c.err)
		}
	}
}
