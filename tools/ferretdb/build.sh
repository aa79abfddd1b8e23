#!/usr/bin/env bash
# Builds FerretDB v1.24.2 (the MongoDB wire protocol over SQLite or PostgreSQL) for the tests of the
# MongoDB read store and of the distributed topology. The version is pinned by go.mod/go.sum here.
#
# FerretDB's build/version package embeds a generated version.txt that the module zip lacks (the
# binary panics at start without it), so the program is built from a copy of the module's directory
# with that one file written. Nothing of FerretDB is committed: the copy lives in a temp directory
# and the binary in .cache/ferretdb/ (ignored by git).
#
# Usage: tools/ferretdb/build.sh        prints the binary's path (builds it once)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="v1.24.2"
out="${FERRETDB_BIN:-$root/.cache/ferretdb/ferretdb-$version}"

# (the version is captured first: grep -q under pipefail would make the writer die of SIGPIPE)
built_version() { "$1" --version 2>/dev/null | sed -n 's/^version: //p'; }

if [ -x "$out" ] && [ "$(built_version "$out")" = "$version" ]; then
  echo "$out"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "tools/ferretdb/build.sh: Go is not installed (needed to build FerretDB $version)" >&2
  exit 3
fi

cd "$here"
# the module as go.sum pins it (checksum-verified download into the module cache)
moddir="$(go mod download -json "github.com/FerretDB/FerretDB@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
if [ -z "$moddir" ] || [ ! -d "$moddir" ]; then
  echo "tools/ferretdb/build.sh: could not download github.com/FerretDB/FerretDB@$version" >&2
  exit 1
fi

src="$(mktemp -d)"
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT
cp -R "$moddir/." "$src/"
chmod -R u+w "$src"
printf '%s\n' "$version" > "$src/build/version/version.txt"
mkdir -p "$(dirname "$out")"
(cd "$src" && CGO_ENABLED=0 go build -trimpath -o "$out.tmp" ./cmd/ferretdb)
mv "$out.tmp" "$out"
if [ "$(built_version "$out")" != "$version" ]; then
  echo "tools/ferretdb/build.sh: the binary built does not report $version" >&2
  exit 1
fi
echo "$out"
