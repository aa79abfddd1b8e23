#!/usr/bin/env bash
# Builds MinIO (S3-compatible object storage) for the S3 file-store contract and the no-shared-disk
# topology test. The version is pinned by go.mod/go.sum here (the Go module proxy's pseudo-version of
# github.com/minio/minio at commit 7aac2a2c5b7c, 2026-02-12). Nothing of MinIO is committed: the
# binary lives in .cache/minio/ (ignored by git). The tests run it bound to 127.0.0.1 only.
#
# Usage: tools/minio/build.sh        prints the binary's path (builds it once)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="v0.0.0-20260212201848-7aac2a2c5b7c"
out="${MINIO_BIN:-$root/.cache/minio/minio-$version}"

if [ -x "$out" ]; then
  echo "$out"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/minio/build.sh: Go is not installed (needed to build MinIO $version)" >&2
  exit 3
fi

cd "$here"
mkdir -p "$(dirname "$out")"
# the program of the module as go.mod and go.sum pin it (checksum-verified downloads); its version
# string names the pseudo-version (MinIO's own build stamps a release tag the module lacks)
CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath \
  -ldflags "-s -w -X github.com/minio/minio/cmd.ReleaseTag=$version -X github.com/minio/minio/cmd.Version=2026-02-12T20:18:48Z -X github.com/minio/minio/cmd.CommitID=7aac2a2c5b7c" \
  -o "$out.tmp" github.com/minio/minio
mv "$out.tmp" "$out"
echo "$out"
