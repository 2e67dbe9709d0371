#!/usr/bin/env bash
# npm run test:postgres [-- jest arguments]: the jest suite on a real PostgreSQL. Starts a throwaway
# cluster (scripts/postgres-cluster.sh, which installs PostgreSQL from Debian's packages when it is
# missing), runs the suite as `npm test` does (scripts/test.sh) with DATABASE_CLIENT=postgres pointing at it (every test file gets
# a fresh database of its own), then stops the cluster and removes it, also when jest fails or is
# interrupted. Exits with the suite's code.
set -euo pipefail
cd "$(dirname "$0")/.."

cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/artikel-postgres-XXXXXX")
cleanup() { scripts/postgres-cluster.sh stop "$cluster_dir" || true; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cluster_env=$(scripts/postgres-cluster.sh start "$cluster_dir")  # fails the script when the cluster does not start
eval "$cluster_env"
# Nothing of a developer's SQLite or PostgreSQL settings may leak into the run.
unset DATABASE_URL DATABASE_FILENAME DATABASE_SCHEMA

status=0
bash scripts/test.sh "$@" || status=$?
exit "$status"
