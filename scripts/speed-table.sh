#!/usr/bin/env bash
# Regenerates docs/guide/speed.md: the per-core rate of every kernel the
# throughput floors guard (median of RUNS runs of the floors bench, each
# rate in CPU time of one thread, beside its ratio to raw generator draws
# measured in the same run), and the CPU time end to end of a question, the
# shipped report and the 10,000-variant exact sweep (scripts/sweep-10k.sh),
# with the load average beside them.
#
# Usage: scripts/speed-table.sh            (writes docs/guide/speed.md)
# Environment: RUNS (default 3) floors runs; PIKESHOT_BIN=path times another
# build end to end; SKIP_SWEEP=1 leaves the 10,000-variant sweep out;
# FLOORS_ONLY=1 leaves the end-to-end table out (no release build);
# FLOORS_OUT=dir reads the floors runs from dir/floors-* instead of running
# them (the output of `cargo bench -p pikeshot-benches --bench floors`).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
if [ -n "${FLOORS_ONLY:-}" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
else
  timing_setup
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }

if [ -n "${FLOORS_OUT:-}" ]; then
  cp "$FLOORS_OUT"/floors-* "$tmp"/
  RUNS=$(find "$tmp" -name 'floors-*' | wc -l)
  load_before=$(cat "$FLOORS_OUT/load-before" 2>/dev/null || echo unknown)
  load_after=$(cat "$FLOORS_OUT/load-after" 2>/dev/null || echo unknown)
else
  cargo bench -p pikeshot-benches --bench floors --locked --no-run -q 2>/dev/null
  load_before=$(load)
  for i in $(seq "$RUNS"); do
    cargo bench -p pikeshot-benches --bench floors --locked -q 2>/dev/null >"$tmp/floors-$i" || true
  done
  load_after=$(load)
fi

# Median per kernel of its rate (column "per CPU second") and ratio.
table=$(awk '
  function median(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function scale(v, u) { return v * (u == "G" ? 1e9 : u == "M" ? 1e6 : u == "k" ? 1e3 : 1) }
  function words(x) {
    if (x >= 1e9) return sprintf("%.2f G/s", x / 1e9)
    if (x >= 1e6) return sprintf("%.1f M/s", x / 1e6)
    if (x >= 1e3) return sprintf("%.1f k/s", x / 1e3)
    return sprintf("%.1f /s", x)
  }
  FNR == NR { if ($0 !~ /^#/ && $2 == "=") limit[$1] = $3; next }
  / (pass|FAIL)$/ {
    name = $1
    # the rate is the two fields before the ratio: "1.234 G/s"
    for (i = 2; i <= NF; i++) if ($i ~ /\/s$/) { r = scale($(i - 1), substr($i, 1, length($i) - 2)); ratio = $(i + 1) }
    if (!(name in rates)) { order[++k] = name; what[name] = "" ; for (i = 2; i <= NF; i++) { if ($(i + 1) ~ /\/s$/) break; what[name] = what[name] (what[name] == "" ? "" : " ") $i } }
    rates[name] = rates[name] " " r; ratios[name] = ratios[name] " " ratio
  }
  /^reference:/ { for (i = 1; i <= NF; i++) if ($i ~ /\/s$/) ref = ref " " scale($(i - 1), substr($i, 1, length($i) - 2)) }
  END {
    print "| kernel | one resolution | per core (CPU second) | ratio to the generator | floor |"
    print "|---|---|---:|---:|---:|"
    for (j = 1; j <= k; j++) { n = order[j]; printf "| %s | %s | %s | %s | %s |\n", n, what[n], words(median(rates[n])), median(ratios[n]), limit[n] }
    printf "| reference | raw xoshiro256++ words | %s | 1 | |\n", words(median(ref))
  }' benches/floors.toml "$tmp"/floors-*)

e2e=""
if [ -z "${FLOORS_ONLY:-}" ]; then
  cpu_of() { # the CPU seconds (user + system) of a command, from /usr/bin/time
    /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null 2>&1
    awk '{ printf "%.2f", $1 + $2 }' "$tmp/t"
  }
  question=$(cpu_of "$bin" run scenarios/mpbs/charge-or-salvo.toml -q --plots none --out "$tmp/q")
  report=$(cpu_of "$bin" report scenarios -q --out "$tmp/r")
  if [ -z "${SKIP_SWEEP:-}" ]; then
    sweep=$(PIKESHOT_BIN="$bin" scripts/sweep-10k.sh --plots none | awk -F': ' '/^cpu/ { split($2, a, " "); print a[1] }')
  else
    sweep="(not measured)"
  fi
  load_end=$(load)
  e2e="End to end, CPU seconds (user + system) of the release build:

| work | CPU seconds |
|---|---:|
| a question: \`pikeshot run scenarios/mpbs/charge-or-salvo.toml\` (three courses, both cards, a million trials each) | $question |
| the shipped report: \`pikeshot report scenarios\` | $report |
| the 10,000-variant exact sweep of \`scripts/sweep-10k.sh\` (\`--plots none\`) | $sweep |

Load average after: $load_end."
fi

cat >docs/guide/speed.md <<MD
# Speed

How fast pikeshot resolves, per core. Written by \`scripts/speed-table.sh\`
from the throughput floors bench (\`cargo bench -p pikeshot-benches --bench
floors\`): each rate is resolutions per second of CPU time of one thread,
the median of $RUNS runs; the ratio divides it by raw xoshiro256++ words
drawn on the same core in the same run, so it holds on a busy machine.
The floor is what CI accepts (\`benches/floors.toml\`): 0.7 of the median
ratio when it was set, so a kernel 1.5 times slower fails.

Each course is sampled from the fastest table that fits it, chosen once
when it is built: a compiled table of die paths with packed counters (at
most ten outcomes), else an alias table over its exact distribution (32
bits of the generator a trial, however many steps or turns the course
has), else die by die. \`timing.csv\` names the kernel of every course.

$table

Load average while measuring: $load_before before, $load_after after ($(nproc) cores).

$e2e
MD
echo "wrote docs/guide/speed.md"
