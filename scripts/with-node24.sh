#!/usr/bin/env bash
# Runs a command (npm's scripts: build, start, demo, test, token …) under Node 24, installing one from
# the npm registry first when the machine's `node` is older (Debian's is 20, on which better-sqlite3
# and Strapi crash). Usage: bash scripts/with-node24.sh COMMAND [ARGUMENTS…]
set -uo pipefail

found="$(node --version 2>/dev/null || echo none)"
if ! folder="$(bash "$(dirname "$0")/node24.sh")"; then
  echo "studio-artikel needs Node 24 (22.13 or later works); found ${found}, and could not install Node 24 from the npm registry: install Node 24 (https://nodejs.org) and run the command again" >&2
  exit 1
fi
export PATH="${folder}:${PATH}"
exec "$@"
