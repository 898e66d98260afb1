package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and platform",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), versionString())
			fmt.Fprintln(cmd.OutOrStdout(), sandbox.StatusLine())
			return nil
		},
	}
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
