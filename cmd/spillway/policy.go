package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/render"
)

// configEnv names the config file when --config is not given.
const configEnv = "SPILLWAY_CONFIG"

// loadPolicy builds the policy a tool command, mcp or serve runs with, from
// the global flags: the built-in defaults, then the profile (--profile, else
// the config file's profile key), then the config file (--config, else
// $SPILLWAY_CONFIG). Per-call parameters come later, with the policy's
// ForCall methods. A bad file, profile or --format is an error for the
// caller to return from RunE (main prints it and exits 2): every command
// that loads a policy checks the format too, though it is not part of it.
func (g *globalFlags) loadPolicy() (spillway.Policy, error) {
	if _, err := g.resultFormat(); err != nil {
		return spillway.Policy{}, err
	}
	return config.Load(g.policySources())
}

// resultFormat is --format: how results are written, text or json.
func (g *globalFlags) resultFormat() (spillway.Format, error) {
	f, err := render.ParseFormat(g.format)
	if err != nil {
		return "", fmt.Errorf("--format: %w", err)
	}
	return spillway.Format(f), nil
}

// policySources are the layers the global flags name. Without --config or
// $SPILLWAY_CONFIG, the config file is defaultConfigPath's when it exists.
func (g *globalFlags) policySources() config.Sources {
	path := g.config
	if path == "" {
		path = os.Getenv(configEnv)
	}
	if path == "" {
		if p := defaultConfigPath(); p != "" {
			if _, err := os.Stat(p); err == nil {
				path = p
			}
		}
	}
	return config.Sources{Profile: g.profile, ConfigPath: path}
}

// defaultConfigPath is where spillway looks for its config file when none
// is named: $XDG_CONFIG_HOME/spillway/config.toml, else
// ~/.config/spillway/config.toml — on macOS too, where people keep the
// dotfiles of command-line tools there.
func defaultConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "spillway", "config.toml")
}
