#!/usr/bin/env bash
# The release cross-build that .goreleaser.yaml describes, with the Go
# toolchain alone: the spillway binary for linux and darwin × amd64 and
# arm64 (CGO_ENABLED=0, -trimpath), one tar.gz each and a SHA-256
# checksums.txt, in dist/. CI runs this rather than GoReleaser itself:
# GoReleaser's current release needs a newer Go than this module's CI
# installs (v2.18.2 requires go >= 1.27.1), and `go install` of an older
# one compiles a large module graph on every fresh machine. The archives
# and checksums are the ones the configuration describes; the cask is
# made only by a real release.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-snapshot}"
out=dist
rm -rf "$out"
mkdir -p "$out"
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
  os=${target%/*} arch=${target#*/}
  name="spillway_${version}_${os}_${arch}"
  mkdir -p "$out/$name"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w -X main.releaseVersion=$version" \
    -o "$out/$name/spillway" ./cmd/spillway
  cp README.md "$out/$name/"
  tar -C "$out" -czf "$out/$name.tar.gz" "$name"
  rm -rf "${out:?}/$name"
done
(cd "$out" && sha256sum ./*.tar.gz | sed 's| \./| |' > checksums.txt)
# The linux/amd64 archive must hold a binary that runs here.
if [ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ]; then
  tmp=$(mktemp -d)
  tar -C "$tmp" -xzf "$out/spillway_${version}_linux_amd64.tar.gz"
  "$tmp/spillway_${version}_linux_amd64/spillway" version
  rm -rf "$tmp"
fi
(cd "$out" && sha256sum -c checksums.txt)
