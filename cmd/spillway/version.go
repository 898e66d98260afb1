package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

func (g *globalFlags) newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print version, platform, sandbox layers, cgroups, config status",
		Long: `version prints the version, commit and platform of this binary, the
sandbox layers this machine has, whether each session's commands run in
a cgroup of their own, and the config file in force.
A config file that does not load (which stops spillway mcp and serve at
start) makes the exit status 1; spillway doctor checks the clients' entries
too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			probeAsAServer()
			fmt.Fprintln(cmd.OutOrStdout(), versionString())
			fmt.Fprintln(cmd.OutOrStdout(), sandbox.StatusLine())
			fmt.Fprintln(cmd.OutOrStdout(), cgroupLine())
			return g.configLine(cmd.OutOrStdout())
		},
	}
}

// configLine says which config file is in force; a file that does not
// load is a failure, each of its problems on a line of its own.
func (g *globalFlags) configLine(w io.Writer) error {
	src := g.policySources()
	if src.ConfigPath == "" {
		fmt.Fprintln(w, "config: none (the built-in defaults)")
		return nil
	}
	if _, err := config.Load(src); err != nil {
		fmt.Fprintln(w, "config: "+src.ConfigPath+" does not load; spillway mcp and serve will not start:")
		for _, e := range flatErrors(err) {
			fmt.Fprintln(w, "  "+e.Error())
		}
		return failure{errors.New("the config file does not load (spillway doctor checks it and the clients' entries)")}
	}
	fmt.Fprintln(w, "config: "+src.ConfigPath)
	return nil
}

// releaseVersion is set at release builds (-ldflags "-X main.releaseVersion=1.2.3");
// otherwise the module version of the build is shown.
var releaseVersion string

func versionString() string {
	version, commit, modified := releaseVersion, "unknown", ""
	if version == "" {
		version = "(devel)"
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && version == "(devel)" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	// The platform tells which binary ran: the npm package and the
	// release archives hold one per platform.
	return fmt.Sprintf("spillway %s commit %s%s %s/%s", version, commit, modified, runtime.GOOS, runtime.GOARCH)
}

// cgroupLine says whether each session's commands run in a cgroup v2
// group of their own here, and if not, why not.
func cgroupLine() string {
	inUse, where := proc.CgroupStatus()
	if !inUse {
		return "cgroups: not used (" + where + "): a session's commands are ended through their process groups, and limited by rlimits"
	}
	return "cgroups: v2, a group for each session's commands under " + where + " (its end kills them all at once)"
}

// probeAsAServer puts this process in the state in which mcp and serve
// probe the sandbox, so that version and doctor report the layers a
// server of this user gets: a server makes itself non-dumpable first,
// and a non-dumpable process of a user other than root cannot write the
// user-namespace map of the helper it starts, so its commands run
// without namespaces where this user could otherwise make them.
func probeAsAServer() { _ = notDumpable() }
