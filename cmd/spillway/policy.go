package main

import (
	"os"

	"github.com/spillway-dev/spillway/internal/policy"
)

// configEnv names the config file when --config is not given.
const configEnv = "SPILLWAY_CONFIG"

// loadPolicy builds the policy a tool command, mcp or serve runs with, from
// the global flags: the built-in defaults, then the profile (--profile, else
// the config file's profile key), then the config file (--config, else
// $SPILLWAY_CONFIG), then --format. Per-call parameters come later, with
// the policy's ForCall methods. A bad file, profile or format is an error
// for the caller to return from RunE (main prints it and exits 2).
func loadPolicy() (policy.Policy, error) {
	return policy.Load(policySources())
}

// policySources are the layers the global flags name.
func policySources() policy.Sources {
	path := global.config
	if path == "" {
		path = os.Getenv(configEnv)
	}
	return policy.Sources{Profile: global.profile, ConfigPath: path, Format: global.format}
}
