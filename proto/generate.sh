#!/usr/bin/env bash
# Regenerates proto/gen from proto/chorus with ts-proto (buf runs offline from npm). The output is
# committed; CI runs this and fails on `git diff --exit-code proto/gen` when it is stale.
# Generates into a scratch dir and swaps it in, so concurrent runs never see a half-empty gen/.
set -euo pipefail
cd "$(dirname "$0")"
scratch=$(mktemp -d "$PWD/.gen.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
../node_modules/.bin/buf generate --output "$scratch"
../node_modules/.bin/prettier --log-level warn --write "$scratch/gen" >/dev/null 2>&1 || true
rm -rf gen.old && { [ -d gen ] && mv gen gen.old || true; } && mv "$scratch/gen" gen && rm -rf gen.old
