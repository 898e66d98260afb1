package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// tokenDirs are the directories where serve writes its tokens: the
// default ones (whichever a server of this user may have used) and, if
// set, that of file.
func tokenDirs(file string) []string {
	var dirs []string
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		dirs = append(dirs, filepath.Join(d, "spillway"))
	}
	// The usual runtime directory, for a server started with
	// $XDG_RUNTIME_DIR when this one was not.
	if d := filepath.Join("/run/user", strconv.Itoa(os.Geteuid()), "spillway"); !slices.Contains(dirs, d) {
		dirs = append(dirs, d)
	}
	if d, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(d, "spillway"))
	}
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			dirs = append(dirs, filepath.Dir(abs))
		}
	}
	return dirs
}

// writeToken writes the token serve made to path (or the default path for
// the port of serverURL), readable by this user only, and returns the
// path. The file is written beside and renamed into place, so that a
// symlink planted at the path is replaced, never followed.
func writeToken(path, serverURL, token string) (string, error) {
	if path == "" {
		dir, err := tokenDirFor("")
		if err != nil {
			return "", err
		}
		port := "0"
		if u, err := url.Parse(serverURL); err == nil {
			port = u.Port()
		}
		path = filepath.Join(dir, "serve-"+port+".token")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot make the token's directory: %w (set --token-file, or give a token with $%s)", err, tokenEnv)
	}
	f, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return "", fmt.Errorf("cannot write the token file: %w (set --token-file, or give a token with $%s)", err, tokenEnv)
	}
	// CreateTemp makes the file 0600.
	_, err = f.WriteString(token + "\n")
	if e := f.Close(); err == nil {
		err = e
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("cannot write the token file %s: %w", path, err)
	}
	return path, nil
}

// tokenDirFor is the directory serve writes its token file to: that of
// path, or without one $XDG_RUNTIME_DIR's spillway, else the config
// directory's.
func tokenDirFor(path string) (string, error) {
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", fmt.Errorf("--token-file %s: %w", path, err)
		}
		return filepath.Dir(abs), nil
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		var err error
		if dir, err = os.UserConfigDir(); err != nil {
			return "", fmt.Errorf("no directory for the token file (%v): set --token-file, or give a token with $%s", err, tokenEnv)
		}
	}
	return filepath.Join(dir, "spillway"), nil
}
