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
# (1.26) from the Go module proxy (see docs/install.md). No registry ships
# its binary: npm's @goreleaser/goreleaser downloads it at install, which
# this machine cannot. Building it takes longer than all the rest of CI on
# a loaded 2-core machine (79 min measured), so without it in the cache,
# and unless SPILLWAY_RELEASE=full (the release path: it builds
# GoReleaser when missing), the archives are built as .goreleaser.yaml
# describes them with go build and tar: the four targets, CGO off,
# -trimpath, the same ldflags, names, files, checksums.txt, and the
# metadata.json and artifacts.json npm/build.js reads. The cask and
# `goreleaser check` are then left to the release path.
#
# Environment:
#   SPILLWAY_CI_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/spillway-ci)
#   SPILLWAY_RELEASE    "full": GoReleaser itself, built when missing
set -euo pipefail
cd "$(dirname "$0")/.."

goreleaser_version=v2.15.1
bin="${SPILLWAY_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spillway-ci}/goreleaser-$goreleaser_version"
if [ -x "$bin/goreleaser" ] || [ "${SPILLWAY_RELEASE:-}" = full ]; then
  if [ ! -x "$bin/goreleaser" ]; then
    echo "-- installing goreleaser $goreleaser_version into $bin"
    GOBIN="$bin" go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
  fi
  goreleaser="$bin/goreleaser"
  "$goreleaser" --version | grep -m1 GitVersion

  "$goreleaser" check
  "$goreleaser" release --snapshot --clean
else
  echo "-- goreleaser $goreleaser_version is not in $bin: the archives are built with go build (SPILLWAY_RELEASE=full builds goreleaser)"
  # GoReleaser's snapshot version: the last tag's patch plus one.
  last=$(git describe --tags --abbrev=0 2>/dev/null || echo v0.0.0)
  IFS=. read -r major minor patch <<<"${last#v}"
  version="$major.$minor.$((${patch%%[!0-9]*} + 1))-snapshot"
  rm -rf dist
  mkdir -p dist
  artifacts=()
  for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
    os=${target%/*} arch=${target#*/}
    name="spillway_${version}_${os}_${arch}"
    mkdir -p "dist/$name"
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath \
      -ldflags "-s -w -X main.releaseVersion=$version" -o "dist/$name/spillway" ./cmd/spillway
    cp README.md LICENSE* "dist/$name/"
    tar -C "dist/$name" -czf "dist/$name.tar.gz" .
    rm -rf "dist/${name:?}"
    artifacts+=("{\"type\":\"Archive\",\"goos\":\"$os\",\"goarch\":\"$arch\",\"path\":\"dist/$name.tar.gz\",\"name\":\"$name.tar.gz\"}")
  done
  (cd dist && sha256sum ./*.tar.gz | sed 's| \./| |' >checksums.txt)
  printf '{"project_name":"spillway","version":"%s"}\n' "$version" >dist/metadata.json
  (IFS=,; printf '[%s]\n' "${artifacts[*]}") >dist/artifacts.json
fi

version=$(node -p 'require("./dist/metadata.json").version')
(cd dist && sha256sum -c checksums.txt)
ls dist/*.tar.gz dist/checksums.txt
if [ -x "$bin/goreleaser" ]; then ls dist/homebrew/Casks/spillway.rb; fi

# The linux/amd64 archive must hold a binary that runs here.
if [ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ]; then
  tmp=$(mktemp -d)
  tar -C "$tmp" -xzf "dist/spillway_${version}_linux_amd64.tar.gz"
  "$tmp/spillway" version
  rm -rf "$tmp"
fi

node npm/build.js dist dist/npm
