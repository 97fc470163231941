#!/bin/sh
# Captures this host (and, with PIDs, those processes) into a fixture tree
# that `uringlint --root DIR` replays. This is `uringlint capture`; run it as
# the user and with the limits of the service you want judged, since
# proc/self in the tree is the capturing process.
#
#   sh testdata/capture.sh OUT_DIR [PID...]      (after make)
set -eu
out=${1:?usage: capture.sh OUT_DIR [PID...]}
shift
bin=$(dirname "$0")/../uringlint
set -- $(for p in "$@"; do printf -- '--pid %s ' "$p"; done)
exec "$bin" capture -o "$out" "$@"
