#!/usr/bin/env bash
# Replays recorded runs through the slow verdict of this build (bench/slow_replay.cpp): evidence for
# the current rule from every run recorded under an older one.
#   bash bench/slow_replay.sh DIR...
# DIR is a campaign of bench/real_false_alarms.sh (campaign.tsv and its run_*.log: balanced runs,
# so every slow verdict is a false one; replayed as runs without a CPU quota, --never-throttled) or
# of bench/slow_detection.sh (results.tsv and its run_*/ with the watcher's log, the fault and its
# times: replayed with their 100-round baseline, the verdict set beside the injected rank and the
# delay from the fault). Prints one row per run, then the totals: for balanced runs, the quiet ones
# (foreign CPU under 5 %, as the campaign counts them) apart. REPLAY=PATH replays with another build's
# bench/slow_replay (a rule under study against the recorded runs).
. "$(dirname "$0")/common.sh"
REPLAY=${REPLAY:-$BUILD/bench/slow_replay}
[ -x "$REPLAY" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
[ $# -gt 0 ] || { echo "usage: bash bench/slow_replay.sh DIR... (campaigns of real_false_alarms.sh or slow_detection.sh)" >&2; exit 2; }

first() { "$REPLAY" "$@" | sed -n 1p; }
who() { sed -nE 's/^slow at round [0-9]+, t=([0-9.]+) s: slow: ([^;]*) ~.*/\2/p' <<<"$1"; }
at() { sed -nE 's/^slow at round [0-9]+, t=([0-9.]+) s:.*/\1/p' <<<"$1"; }

balanced() {  # balanced DIR: campaign.tsv's rows with their logs
  local dir=$1 started target seconds slow foreign out quiet log
  echo "| run | target | seconds | foreign CPU % | recorded | replayed |"
  echo "|---|---|---|---|---|---|"
  while IFS=$'\t' read -r started target _ seconds _ _ _ _ _ slow foreign; do
    [ "$started" != started ] || continue
    # The log is named a moment after the row's start: that second or the next.
    log=$({ compgen -G "$dir/run_${started}_*.log" || compgen -G "$dir/run_$((started + 1))_*.log" || true; } | sed -n 1p)
    [ -n "$log" ] && grep -q " record: " "$log" || continue
    out=$(first --never-throttled <"$log")
    quiet=no; [[ $foreign =~ ^[0-9.]+$ ]] && awk -v f="$foreign" 'BEGIN { exit !(f < 5) }' && quiet=yes
    echo "| $(basename "$log" .log) | $target | $seconds | $foreign | $slow | ${out#slow at } |"
    echo "$quiet $seconds $([[ $out == slow* ]] && echo 1 || echo 0)" >>"$SCRATCH/balanced"
  done <"$dir/campaign.tsv"
}

injected() {  # injected DIR: each run_*/ of a slow_detection.sh campaign
  local dir=$1 d out rank kind started faulted delay named right
  echo "| run | fault | rank | replayed verdict | right | delay (s) |"
  echo "|---|---|---|---|---|---|"
  for d in "$dir"/run_*/; do
    [ -s "$d/watch.err" ] && [ -s "$d/injected" ] && [ -s "$d/times" ] || continue
    read -r started faulted _ <"$d/times"
    read -r _ rank _ kind <"$d/injected"
    out=$(first --baseline-rounds 100 <"$d/watch.err")
    named=$(who "$out") delay=-
    if [ -n "$named" ]; then
      delay=$(awk -v t="$(at "$out")" -v a="$started" -v b="$faulted" 'BEGIN { printf "%.1f", t - (b - a) }')
      right=no; grep -qE "^rank $rank( |$)|ranks? .*\b$rank\b" <<<"$named" && right=yes
    else right=-; fi
    echo "| $(basename "$d") | $kind | $rank | ${named:-none} | $right | $delay |"
    echo "$right $delay" >>"$SCRATCH/injected"
  done
}

for dir in "$@"; do
  echo "### $dir"; echo
  if [ -f "$dir/campaign.tsv" ]; then balanced "$dir"
  elif [ -f "$dir/results.tsv" ]; then injected "$dir"
  else echo "$dir: neither campaign.tsv (real_false_alarms.sh) nor results.tsv (slow_detection.sh)" >&2; exit 2; fi
  echo
done
if [ -s "$SCRATCH/balanced" ]; then
  awk '{ n++; h += $2; v += $3; if ($1 == "yes") { q++; qh += $2; qv += $3 } }
       END { printf "balanced runs replayed: %d (%.2f wall h), %d slow verdicts; quiet: %d (%.2f wall h), %d slow verdicts\n",
             n, h / 3600, v, q, qh / 3600, qv }' "$SCRATCH/balanced"
fi
if [ -s "$SCRATCH/injected" ]; then
  awk '$1 != "-" { named++; if ($1 == "yes") right++; print $2 > "'"$SCRATCH/delays"'" } { n++ }
       END { printf "injections replayed: %d; named: %d, the right rank: %d\n", n, named, right }' "$SCRATCH/injected"
  echo "delay from the fault (s): median p90 p99 min max count: $(stats "$SCRATCH/delays")"
fi
