#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suite (npm run test:postgres).
#
#   scripts/postgres-cluster.sh start DIR   create and start a cluster in DIR (created if missing),
#                                           print the DATABASE_* variables to use (eval-able lines)
#   scripts/postgres-cluster.sh stop DIR    stop it and remove DIR
#
# The cluster listens only on 127.0.0.1 (on a free port) and on a socket in DIR, trades durability
# for speed (fsync, synchronous_commit and full_page_writes off) and allows 200 connections. Its one
# user is a superuser with a random password, so the tests can create a database per test file.
# The variables are also written to DIR/env. When initdb is missing, PostgreSQL is installed from
# Debian's packages (as root, without starting or creating any system cluster).
#
# Environment: POSTGRES_LOCALE (default C.UTF-8; C works too), POSTGRES_PORT (default: a free one),
# POSTGRES_BIN (folder holding initdb and pg_ctl; default: found on PATH or in /usr/lib/postgresql).
set -euo pipefail

readonly CLUSTER_USER=artikel
readonly RUN_AS=postgres  # the system user that owns the cluster when this script runs as root

log() { printf 'postgres-cluster: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

usage() { die "usage: $0 start|stop DIR"; }

# Prints the folder holding initdb, pg_ctl and postgres; fails when there is none.
find_bin() {
  if [[ -n "${POSTGRES_BIN:-}" ]]; then
    [[ -x "$POSTGRES_BIN/initdb" ]] && echo "$POSTGRES_BIN"
    return
  fi
  local candidate
  # Debian keeps the server binaries out of PATH, one folder per major version; take the newest.
  candidate=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n "$candidate" && -x "$candidate/initdb" ]]; then echo "$candidate"; return 0; fi
  candidate=$(command -v initdb || true)
  if [[ -n "$candidate" ]]; then dirname "$(readlink -f "$candidate")"; return 0; fi
  return 1
}

install_postgres() {
  [[ $(id -u) -eq 0 ]] || die "initdb not found, and installing PostgreSQL needs root (apt-get install postgresql)"
  command -v apt-get >/dev/null || die "initdb not found and there is no apt-get to install PostgreSQL with"
  log "initdb not found: installing PostgreSQL from Debian's packages"
  # No system cluster and no service start: this script runs its own clusters.
  mkdir -p /etc/postgresql-common
  if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
    echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf
  fi
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
  fi
  local status=0
  {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold postgresql
  } >&2 || status=$?
  [[ $created_policy -eq 1 ]] && rm -f "$policy"
  [[ $status -eq 0 ]] || die "apt-get install postgresql failed ($status)"
}

# Runs a command as the cluster's owner: the postgres system user when we are root (the server
# refuses to run as root), ourselves otherwise.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "$RUN_AS" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();});"
}

start() {
  local dir=$1 bin
  [[ -z "${POSTGRES_BIN:-}" || -x "$POSTGRES_BIN/initdb" ]] || die "POSTGRES_BIN=$POSTGRES_BIN holds no initdb"
  bin=$(find_bin) || { install_postgres; bin=$(find_bin) || die "initdb still not found after installing PostgreSQL"; }
  [[ -e "$dir/data/PG_VERSION" ]] && die "$dir already holds a cluster; stop it first"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  local data=$dir/data
  local password
  password=$(node -e "console.log(require('crypto').randomBytes(18).toString('hex'))")
  umask 077
  printf '%s\n' "$password" >"$dir/password"
  : >"$dir/postgres.log"
  touch "$dir/.artikel-postgres-cluster"  # what stop checks before it removes anything

  if [[ $(id -u) -eq 0 ]]; then
    if ! id "$RUN_AS" >/dev/null 2>&1; then
      useradd --system --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$RUN_AS"
    fi
    chown -R "$RUN_AS": "$dir"
    chmod 700 "$dir"
  fi

  local locale=${POSTGRES_LOCALE:-C.UTF-8}
  log "initdb in $data ($("$bin/initdb" --version), locale $locale)"
  as_owner "$bin/initdb" --pgdata="$data" --username="$CLUSTER_USER" --pwfile="$dir/password" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale="$locale" --no-instructions >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  rm -f "$dir/password"

  local port attempt
  for attempt in 1 2 3 4 5; do
    port=${POSTGRES_PORT:-$(free_port)}
    as_owner tee -a "$data/postgresql.conf" >/dev/null <<EOF
# scripts/postgres-cluster.sh: a throwaway test cluster
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
    if as_owner "$bin/pg_ctl" --pgdata="$data" --log="$dir/postgres.log" --wait --timeout=60 --silent start >&2; then
      break
    fi
    [[ -z "${POSTGRES_PORT:-}" && $attempt -lt 5 ]] || { tail -n 20 "$dir/postgres.log" >&2; die "the server did not start"; }
    log "port $port was taken meanwhile; trying another"
  done

  as_owner "$bin/psql" --no-psqlrc --quiet --host="$dir" --port="$port" --username="$CLUSTER_USER" --dbname=postgres \
    --command="CREATE DATABASE $CLUSTER_USER" >&2

  local env_file=$dir/env
  cat >"$env_file" <<EOF
export DATABASE_CLIENT=postgres
export DATABASE_HOST=127.0.0.1
export DATABASE_PORT=$port
export DATABASE_USERNAME=$CLUSTER_USER
export DATABASE_PASSWORD=$password
export DATABASE_NAME=$CLUSTER_USER
export DATABASE_SSL=false
EOF
  [[ $(id -u) -eq 0 ]] && chmod 644 "$env_file"
  log "$("$bin/postgres" --version | sed 's/^postgres (PostgreSQL) /PostgreSQL /') listening on 127.0.0.1:$port (data in $data)"
  cat "$env_file"
}

stop() {
  local dir=$1
  [[ -d "$dir" ]] || { log "$dir does not exist; nothing to stop"; return 0; }
  # An empty folder: start failed before it made anything (e.g. no PostgreSQL to be had).
  if [[ -z "$(ls -A "$dir")" ]]; then rmdir "$dir"; return 0; fi
  [[ -e "$dir/.artikel-postgres-cluster" ]] || die "$dir was not made by this script; not removing it"
  if [[ -e "$dir/data/postmaster.pid" ]]; then
    local bin
    bin=$(find_bin) || die "pg_ctl not found"
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait --silent stop >&2 ||
      log "pg_ctl stop failed (the server may already be down)"
  fi
  rm -rf "$dir"
  log "stopped and removed $dir"
}

[[ $# -eq 2 ]] || usage
case $1 in
  start) start "$2" ;;
  stop) stop "$2" ;;
  *) usage ;;
esac
