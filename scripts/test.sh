#!/usr/bin/env bash
# npm test [-- jest arguments]: the jest suite in two passes (see jest.config.js). First every file
# that asserts no time bound, two at a time; then the files tagged @timing, one at a time, on the
# build the first pass compiled. Both passes run even when the first fails; exits 1 if either did.
# With arguments (a file, -t '<name>'), one plain jest run: every file named, one at a time.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  exec npx --no-install jest "$@"
fi
status=0
ARTIKEL_TEST_PASS=parallel npx --no-install jest || status=1
echo
echo "[test] the files tagged @timing, one at a time:"
ARTIKEL_TEST_PASS=timing ARTIKEL_TEST_DIST_READY=1 npx --no-install jest || status=1
exit "$status"
