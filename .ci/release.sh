#!/usr/bin/env bash
# The release build as CI runs it, from a clean checkout and publishing
# nothing: GoReleaser in snapshot mode builds what .goreleaser.yaml
# describes (the linux and darwin × amd64 and arm64 archives,
# checksums.txt and the Homebrew cask) into dist/, and npm/build.js makes
# the npm packages from those archives into dist/npm/. Then the checksums
# are checked and the linux/amd64 archive's binary runs here.
#
# GoReleaser is pinned, built once with `go install` and kept in the CI
# cache. v2.15.1 is the newest release that builds with this module's Go
# (1.26) from the Go module proxy (see docs/install.md).
#
# Environment:
#   SPILLWAY_CI_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/spillway-ci)
set -euo pipefail
cd "$(dirname "$0")/.."

goreleaser_version=v2.15.1
bin="${SPILLWAY_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spillway-ci}/goreleaser-$goreleaser_version"
if [ ! -x "$bin/goreleaser" ]; then
  echo "-- installing goreleaser $goreleaser_version into $bin"
  GOBIN="$bin" go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
fi
goreleaser="$bin/goreleaser"
"$goreleaser" --version | grep -m1 GitVersion

"$goreleaser" check
"$goreleaser" release --snapshot --clean

version=$(node -p 'require("./dist/metadata.json").version')
(cd dist && sha256sum -c checksums.txt)
ls dist/*.tar.gz dist/checksums.txt dist/homebrew/Casks/spillway.rb

# The linux/amd64 archive must hold a binary that runs here.
if [ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ]; then
  tmp=$(mktemp -d)
  tar -C "$tmp" -xzf "dist/spillway_${version}_linux_amd64.tar.gz"
  "$tmp/spillway" version
  rm -rf "$tmp"
fi

node npm/build.js dist dist/npm
