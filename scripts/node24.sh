#!/usr/bin/env bash
# Prints the folder of a Node 24 binary, installing one from the npm registry when the machine's
# `node` is older: the `node` package of npm carries the real Node build for this platform.
#
#   export PATH="$(bash scripts/node24.sh):$PATH"
#
# The install goes to ${NODE24_PREFIX:-$HOME/.cache/studio-artikel/node24} and is reused by later runs.
set -euo pipefail

readonly WANTED_MAJOR=24
readonly PREFIX="${NODE24_PREFIX:-$HOME/.cache/studio-artikel/node24}"

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if command -v node >/dev/null 2>&1 && [[ "$(major node)" -ge "$WANTED_MAJOR" ]]; then
  dirname "$(command -v node)"
  exit 0
fi
readonly BIN="$PREFIX/node_modules/node/bin"
if [[ ! -x "$BIN/node" || "$(major "$BIN/node")" -lt "$WANTED_MAJOR" ]]; then
  mkdir -p "$PREFIX"
  # The package's preinstall script fetches the platform's build from the registry: it is allowed
  # by name, as npm asks of every install script.
  printf '{"private":true,"allowScripts":{"node":true}}\n' >"$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund "node@$WANTED_MAJOR" >&2
fi
[[ "$(major "$BIN/node")" -ge "$WANTED_MAJOR" ]] || { echo "node24: could not install Node $WANTED_MAJOR from npm" >&2; exit 1; }
echo "$BIN"
