#!/usr/bin/env bash
# The 2-thread over 1-thread speed-up (issue 14, item 9), end to end with
# the release binary, wall time (and CPU time beside it), the median of
# REPS runs each:
#   1. close combat: a Monte Carlo run of a close-combat-only scenario
#      ("charge now" of scenarios/mpbs/charge-or-salvo.toml), CC_TRIALS
#      trials (a few seconds on one thread);
#   2. a sweep: charge-or-salvo over edition × the tercio's morale ×
#      strength (40 variants × 3 courses), SWEEP_TRIALS trials a course,
#      default plots.
# Prints both with the load average: on a shared machine the second core
# is often someone else's, so say how loaded it was beside any figure.
# Usage: scripts/speedup.sh   (REPS=5 CC_TRIALS=... SWEEP_TRIALS=... to change;
# PIKESHOT_BIN=... to time another build)
set -euo pipefail
cd "$(dirname "$0")/.."

REPS=${REPS:-3}
CC_TRIALS=${CC_TRIALS:-6000000000}
SWEEP_TRIALS=${SWEEP_TRIALS:-200000}

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
timing_setup

# Everything up to the second [[course]]: the units and "charge now".
awk '/^\[\[course\]\]/ { n++ } n < 2' scenarios/mpbs/charge-or-salvo.toml \
  > "$tmp/close-combat.toml"
# Everything before [sweep], then a sweep of 40 variants.
unswept_charge_or_salvo > "$tmp/sweep.toml"
cat >> "$tmp/sweep.toml" <<'TOML'
[sweep]
edition = ["series", "sfo"]
"units.tercio.morale" = [4, 5, 6, 7, 8]
"units.tercio.strength" = [6, 8, 10, 12]
TOML

# The median wall time and the median CPU time (user + system), in
# seconds, of REPS runs of the command given: "WALL CPU". On a loaded
# machine the wall time is mostly waiting for a core; the CPU time says
# whether the second thread added work.
median_wall() {
  local t
  t=$(mktemp)
  for _ in $(seq "$REPS"); do
    /usr/bin/time -f '%e %U %S' -o "$t" "$@" >/dev/null 2>&1
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$t"
  done > "$t.all"
  local wall cpu
  wall=$(cut -d' ' -f1 "$t.all" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  cpu=$(cut -d' ' -f2 "$t.all" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  rm -f "$t" "$t.all"
  echo "$wall $cpu"
}

row() { # name, one-thread "wall cpu", two-thread "wall cpu"
  awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%-44s %8.2f s %8.2f s %7.2f×   (CPU %.2f s, %.2f s)\n", n, x[1], y[1], x[1] / y[1], x[2], y[2]
  }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf '%-44s %10s %10s %8s\n' "run (median of $REPS, wall; CPU beside)" "1 thread" "2 threads" "speed-up"
cc=(run "$tmp/close-combat.toml" -q --trials "$CC_TRIALS" --plots none)
one=$(median_wall "$bin" "${cc[@]}" --threads 1 --out "$tmp/cc1")
two=$(median_wall "$bin" "${cc[@]}" --threads 2 --out "$tmp/cc2")
row "close combat, $CC_TRIALS trials" "$one" "$two"
sw=(run "$tmp/sweep.toml" -q --trials "$SWEEP_TRIALS")
one=$(median_wall "$bin" "${sw[@]}" --threads 1 --out "$tmp/sw1")
two=$(median_wall "$bin" "${sw[@]}" --threads 2 --out "$tmp/sw2")
row "sweep, 40 variants × 3 courses × $SWEEP_TRIALS" "$one" "$two"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
