#!/usr/bin/env bash
# The 10,000-variant sweep of issue 14 (item 3), end to end with the release
# binary: charge-or-salvo (its three courses) over both cards × five
# terrains × the tercio's morale 2–9 × the brigade's morale 5–9 × both
# strengths 1–5, `--method exact`, default plots (the summary charts).
# Prints wall and CPU time (user + system), peak memory, the number of
# files written and their size, with the load average before and after:
# on a shared machine the wall time is mostly waiting for a core, so say
# how loaded it was beside any figure (CPU time and memory are meaningful
# under load, wall time is not).
#
# Usage: scripts/sweep-10k.sh [extra run flags, e.g. --threads 1 or --plots none]
# Environment: PIKESHOT_BIN=path times another build; LIMIT_KB (default 6 GB)
# caps the address space; TIMEOUT (default 1800 s) stops a run that takes too
# long; KEEP=dir keeps the output folder there.
set -euo pipefail
cd "$(dirname "$0")/.."

LIMIT_KB=${LIMIT_KB:-6291456}
TIMEOUT=${TIMEOUT:-1800}

# shellcheck source=scripts/lib.sh
. scripts/lib.sh
timing_setup

# Everything before [sweep], then the sweep of 2 × 5 × 8 × 5 × 5 × 5 variants.
unswept_charge_or_salvo > "$tmp/sweep-10k.toml"
cat >> "$tmp/sweep-10k.toml" <<'TOML'
[sweep]
edition = ["series", "sfo"]
"units.tercio.terrain" = ["clear", "marsh", "woods", "village", "stream"]
"units.tercio.morale" = [2, 3, 4, 5, 6, 7, 8, 9]
"units.swedes.morale" = [5, 6, 7, 8, 9]
"units.tercio.strength" = [1, 2, 3, 4, 5]
"units.swedes.strength" = [1, 2, 3, 4, 5]
TOML

out=${KEEP:-$tmp/out}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
set +e
(
  ulimit -v "$LIMIT_KB"
  /usr/bin/time -v -o "$tmp/time" timeout "$TIMEOUT" \
    "$bin" run "$tmp/sweep-10k.toml" -q --method exact --out "$out" "$@" \
    >"$tmp/stdout" 2>"$tmp/stderr"
)
code=$?
set -e
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "exit code: $code"
if [ "$code" -ne 0 ]; then
  echo "stderr (last lines):"
  tail -5 "$tmp/stderr"
fi
awk -F': ' '
  /Elapsed \(wall clock\)/ { wall = $2 }
  /User time/ { user = $2 }
  /System time/ { sys = $2 }
  /Maximum resident set size/ { rss = $2 }
  END {
    printf "wall: %s\n", wall
    printf "cpu (user + system): %.2f s (user %.2f s, system %.2f s)\n", user + sys, user, sys
    printf "peak RSS: %.1f MB\n", rss / 1024
  }' "$tmp/time"
if [ -d "$out" ]; then
  echo "files: $(find "$out" -type f | wc -l)"
  echo "size: $(du -sh "$out" | cut -f1) ($(du -sb "$out" | cut -f1) bytes)"
  ls -la "$out" | awk 'NR > 1 { printf "  %10s  %s\n", $5, $9 }'
else
  echo "no output folder written"
fi
