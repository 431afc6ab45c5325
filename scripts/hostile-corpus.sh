#!/usr/bin/env bash
# The hostile run: a fresh corpus of mutated scenarios (from the seeded
# generator in tests/it/fuzz.rs), each run through the release binary with
# a 2 GiB address-space cap and a 30 s limit, niced. A case's command line
# adds its random flags (case-N.args, one case in three); every tenth case
# runs from a scenario path and into an output path that are not UTF-8.
# Counts exit codes and lists what must never happen: exit 101 (panic), 134
# (abort), 137 (killed), timeouts, exit 0 with no outcome rows, output
# written on exit 2, more than 100 MB written, exit-2 messages without the
# file's name or without a line (or the --set or flag it came from).
#
# usage: scripts/hostile-corpus.sh [CASES] [SEED] [WORKDIR] [FIRST]
#   CASES defaults to 10000, SEED to the current time (printed, to replay).
#   FIRST (default 0) runs only cases FIRST to CASES-1 of the corpus, with a
#   log of their own: several such slices of one WORKDIR run side by side.
set -u
cases=${1:-10000}
seed=${2:-$(date +%s)}
work=${3:-$(mktemp -d /tmp/pikeshot-hostile.XXXXXX)}
first=${4:-0}
slice=${4:+-$first}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PIKESHOT_BIN:-$root/target/release/pikeshot}
[ -x "$bin" ] || { echo "build the release binary first: cargo build --release" >&2; exit 2; }
echo "seed $seed, $cases cases, in $work"
mkdir -p "$work/corpus" "$work/out"
if [ ! -e "$work/corpus/case-$(printf %05d $((cases - 1))).sets" ]; then
  (cd "$root" && PIKESHOT_CORPUS_DIR=$work/corpus PIKESHOT_CORPUS_CASES=$cases \
    PIKESHOT_CORPUS_SEED=$seed cargo test -q --test it write_hostile_corpus -- --ignored \
    >/dev/null) || { echo "could not write the corpus" >&2; exit 2; }
fi
log=$work/results$slice.tsv
: >"$log"
for ((c = first; c < cases; c++)); do
  name=case-$(printf %05d "$c")
  f=$work/corpus/$name.toml
  out=$work/out/$name
  if [ $((c % 10)) -eq 7 ]; then
    # Paths that are not UTF-8.
    cp "$f" "$work/corpus/$name-"$'\xff'".toml"
    f=$work/corpus/$name-$'\xff'.toml
    out=$work/out/$name-$'\xfe'
  fi
  args=()
  while IFS= read -r s; do args+=(--set "$s"); done <"$work/corpus/$name.sets"
  flags=()
  [ -e "$work/corpus/$name.args" ] && while IFS= read -r s; do flags+=("$s"); done <"$work/corpus/$name.args"
  # Every other case without flags of its own asks for exact probabilities.
  [ ${#flags[@]} -eq 0 ] && [ $((c % 2)) -eq 1 ] && flags+=(--exact)
  # A trial count unless the flags set one (or a precision instead).
  case " ${flags[*]} " in
    *" --precision "* | *" --trials "*) ;;
    *) flags+=(-n 2000) ;;
  esac
  check=no
  case " ${flags[*]} " in *" --check "*) check=yes ;; esac
  start=$(date +%s.%N)
  timeout -k 5 30 prlimit --as=2147483648 "$bin" run "$f" -j 1 -q -o "$out" \
    "${flags[@]}" "${args[@]}" >"$work/stdout$slice" 2>"$work/stderr$slice"
  rc=$?
  took=$(echo "$(date +%s.%N) - $start" | bc)
  note=
  [ $rc -eq 1 ] && [ $check = yes ] && rc=0
  written=$(du -sb "$out" 2>/dev/null | cut -f1)
  written=$(( ${written:-0} + $(stat -c %s "$work/stdout$slice") ))
  case $rc in
    0)
      lines=$(wc -l <"$out/outcomes.csv" 2>/dev/null || echo 0)
      [ "$lines" -le 1 ] && note="empty output"
      [ "$written" -gt 100000000 ] && note="wrote $written bytes"
      ;;
    2)
      msg=$(head -c 2000 "$work/stderr$slice" | tr -d '\0' | tr '\n\t' '  ')
      if grep -q -e "Usage:" -e "try '--help'" -e '`--' "$work/stderr$slice"; then
        # Flags that do not go together, or a flag's bad value.
        [ -e "$out" ] && note="exit 2 but output written"
      elif ! grep -q -- "$name" "$work/stderr$slice" && ! grep -q -- "--set" "$work/stderr$slice"; then
        note="no file name: $msg"
      elif ! grep -Eq -- "$name[^:]*\.toml:[0-9]+:|--set" "$work/stderr$slice"; then
        note="no line: $msg"
      elif [ -e "$out" ]; then
        note="exit 2 but output written"
      fi
      ;;
    124 | 137) note="timeout or killed" ;;
    *) note="exit $rc: $(head -c 600 "$work/stderr$slice" | tr '\n\t' '  ')" ;;
  esac
  printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$took" "$note" >>"$log"
  rm -rf "$out"
  [ $((c % 10)) -eq 7 ] && rm -f "$f"
done
echo "exit codes:"
cut -f2 "$log" | sort | uniq -c
echo "problems:"
awk -F'\t' '$4 != ""' "$log" | cut -f4 | sed 's/:.*//' | sort | uniq -c
echo "slowest:"
sort -t$'\t' -k3 -rn "$log" | head -5
echo "details: $log"
