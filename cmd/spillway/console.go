package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
	"github.com/spillway-dev/spillway/mcpserver"
)

func (g *globalFlags) newConsoleCmd() *cobra.Command {
	var noOpen bool
	cmd := &cobra.Command{
		Use:   "console",
		Short: "Open your console: approve commands, answer prompts, watch jobs",
		Long: `console finds the spillway servers you run (spillway mcp, and spillway
serve started with --console) and serves a page on 127.0.0.1 where you
approve or deny the commands their rules hold, answer the password
prompts of their commands, and watch their jobs and history.

It prints a link that works once, and opens it in your browser when one
is set ($BROWSER, xdg-open, open). The login lives in that browser tab
only: open the page again with a new spillway console. To reach a
serve's sessions, give its token in $SPILLWAY_TOKEN: a console sees only
the sessions opened with the token it presents.

Run it in your own terminal. Commands that an agent runs cannot reach a
server's console socket (it refuses processes a spillway server
started), but without --sandbox that is a speed bump, not a boundary: a
command runs as you and can do what you can. The page says so.

From another machine, tunnel the port: ssh -L PORT:127.0.0.1:PORT HOST,
run spillway console there, and open the link with your local port.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := console.Dir()
			if err != nil {
				return err
			}
			found, err := console.Discover(dir)
			if err != nil {
				return err
			}
			log, err := newLogger("warn", slog.LevelWarn)
			if err != nil {
				return err
			}
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			c := console.NewConsole(dir, strings.Clone(os.Getenv(tokenEnv)), log)
			link, err := c.Listen(ctx)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "spillway console: %d server%s running (the page follows new ones).\n", len(found), plural(len(found)))
			fmt.Fprintf(w, "Open this link (it works once): %s\n", link)
			if !noOpen {
				fmt.Fprintln(w, browserSays(openLink(ctx, dir, link, c.Used())))
			}
			fmt.Fprintln(w, "Ctrl-C ends the console.")
			<-ctx.Done()
			return nil
		},
	}
	cmd.Flags().BoolVar(&noOpen, "no-open", false, "print the link only; do not open a browser")
	return cmd
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// forwardLifetime is how long the page that forwards the browser to the
// link is kept when the link is not used.
const forwardLifetime = 2 * time.Minute

// openLink opens the one-time link in the browser without putting it on
// the browser's command line or in its environment, which every process
// of the host may read (/proc/PID/cmdline): a command sandboxed without
// namespaces would trade the code first. The browser opens a file://
// page, readable by this user only, in the console's directory (which a
// sandboxed command cannot read, with or without namespaces), that
// forwards to the link; the page is removed when the link is used, after
// forwardLifetime, or when ctx ends.
func openLink(ctx context.Context, dir, link string, used <-chan struct{}) error {
	f, err := os.CreateTemp(dir, "open-*.html")
	if err != nil {
		return fmt.Errorf("cannot write the page that opens the link: %w", err)
	}
	page := f.Name()
	remove := func() { os.Remove(page) }
	quoted, _ := json.Marshal(link) // a JSON string is a JavaScript one
	_, err = fmt.Fprintf(f, `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>spillway console</title>
<script>location.replace(%s)</script>
<noscript><meta http-equiv="refresh" content="0; url=%s"></noscript>
`, quoted, html.EscapeString(link))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return fmt.Errorf("cannot write the page that opens the link: %w", err)
	}
	go func() {
		select {
		case <-used:
		case <-ctx.Done():
		case <-time.After(forwardLifetime):
		}
		remove()
	}()
	if err := openBrowser((&url.URL{Scheme: "file", Path: page}).String()); err != nil {
		remove()
		return err
	}
	return nil
}

// openBrowser opens link with $BROWSER, else xdg-open (open on macOS),
// without waiting for it.
func openBrowser(link string) error {
	var argv []string
	switch {
	case os.Getenv("BROWSER") != "":
		argv = append(strings.Fields(os.Getenv("BROWSER")), link)
	case runtime.GOOS == "darwin":
		argv = []string{"open", link}
	default:
		if _, err := exec.LookPath("xdg-open"); err != nil {
			return err
		}
		argv = []string{"xdg-open", link}
	}
	if len(argv) < 2 {
		return errors.New("no browser")
	}
	c := exec.Command(argv[0], argv[1:]...)
	if err := c.Start(); err != nil {
		return err
	}
	// An opener (xdg-open, open) ends at once and says by its status
	// whether a browser took the link; a browser named in BROWSER may run
	// on, and then it has the link.
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: %w", argv[0], err)
		}
		return nil
	case <-time.After(3 * time.Second):
		return nil
	}
}

// browserSays is the console's line about the browser: opened, or why
// not and what to do instead.
func browserSays(err error) string {
	if err != nil {
		return fmt.Sprintf("(no browser opened it: %v; open the link in yours, or set BROWSER)", err)
	}
	return "(opened in your browser)"
}

// consoleHub is the console hub of a server that shows its sessions
// (nil when it does not).
func (g *globalFlags) consoleHub(opts spillway.Options, log *slog.Logger) *console.Hub {
	if !g.console {
		return nil
	}
	h := console.NewHub(log, !opts.Sandbox)
	h.SetCredential(g.consoleCredential)
	return h
}

// listenConsole serves the hub of cfg on this process's socket, and
// returns what stops it. A server whose console cannot listen runs
// without one, and says so.
func (g *globalFlags) listenConsole(cfg *mcpserver.Config, kind string, log *slog.Logger) func() {
	if cfg.Console == nil {
		return func() {}
	}
	cwd, _ := os.Getwd()
	srv, err := console.Listen("", cfg.Console, console.ServerInfo{Kind: kind, Cwd: cwd})
	if err != nil {
		log.Warn("no console for this server (spillway console will not find it)", "error", err)
		cfg.Console = nil
		return func() {}
	}
	return func() { srv.Close() }
}
