#!/bin/sh
# Times `clubcomp pair --dutch` on seeded random tournaments (round 5 of 9).
# Usage: scripts/swiss/timing.sh [SIZES...]   (default: 200 1000 3000)
# Needs a release build: cargo build --release (BIN=$CARGO_TARGET_DIR/release/clubcomp).
# The user time shows the CPU spent when the machine is busy with other work.
set -eu
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
SIZES=${*:-200 1000 3000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for n in $SIZES; do
  "$BIN" pair --random-trf "$n" --played 4 --rounds 9 --seed 42 > "$TMP/t$n.trf"
  /usr/bin/time -f "$n players: %e s (%U s user), max RSS %M KB" \
    timeout "${TIMEOUT:-600}" "$BIN" pair --dutch "$TMP/t$n.trf" -p "$TMP/t$n.pairs" \
    || echo "$n players: failed or timed out (exit $?)"
done
