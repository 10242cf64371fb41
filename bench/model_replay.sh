#!/usr/bin/env bash
# Replays the samples of recorded supervisor logs (log_samples=yes) through
# the current decision rule and sets its first claim beside what the recorded
# run did: its first claim (an alarm that verification cleared, or a hang).
#   bash bench/model_replay.sh [LOG_DIR]   (default /var/log/jobsentry-test, the Slurm tests' logs;
#   bench-out/real_detection and bench-out/real_false_alarms hold the logs of bench/real_*.sh)
# Prints one row per log where the two differ, then a summary.
# SEEDS=N: then also replays N block-bootstrap streams of each hang-free log that recorded no claim
# (model_replay --seeds: blocks of 50 samples drawn at random places) and totals the candidates the
# rule would have raised over all of them (verification, not replayed, decides on candidates).
. "$(dirname "$0")/common.sh"
DIR=${1:-/var/log/jobsentry-test}
REPLAY=$BUILD/bench/model_replay
[ -x "$REPLAY" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
echo "| log | samples | recorded first claim | replayed first claim | recorded outcome |"
echo "|---|---|---|---|---|"
total=0 differ=0 new_on_hang_free=0 missed_now=0
for f in "$DIR"/job_*.log "$DIR"/run_*.log; do  # Slurm supervisor logs; bench/real_*.sh runs
  [ -f "$f" ] || continue
  n=$(grep -c " S_move=" "$f" || true)
  [ "$n" -gt 0 ] || continue
  total=$((total + 1))
  recorded=$(awk '/ S_move=/{n++} /alarm cleared|HANG detected/{print n; exit}' "$f")
  replayed=$("$REPLAY" <"$f" | sed -n 's/^claim at sample \([0-9]*\).*/\1/p')
  if grep -q "HANG detected" "$f"; then outcome=hang; else outcome=no-hang; fi
  [ "${recorded:-none}" = "${replayed:-none}" ] && continue
  differ=$((differ + 1))
  [ -z "$recorded" ] && [ -n "$replayed" ] && [ $outcome = no-hang ] && new_on_hang_free=$((new_on_hang_free + 1))
  [ -n "$recorded" ] && [ -z "$replayed" ] && missed_now=$((missed_now + 1))
  echo "| $(basename "$f") | $n | ${recorded:-none} | ${replayed:-none} | $outcome |"
done
echo
echo "$total logs; $differ differ; $new_on_hang_free new candidates in runs that recorded none (verification decides);" \
  "$missed_now recorded claims the current rule would not make."
[ -n "${SEEDS:-}" ] || exit 0
streams=0 with_claim=0 samples=0
for f in "$DIR"/job_*.log "$DIR"/run_*.log; do
  [ -f "$f" ] || continue
  grep -q " S_move=" "$f" || continue
  grep -q -E "HANG detected|alarm cleared" "$f" && continue  # hang-free runs without a recorded candidate only
  line=$("$REPLAY" --seeds "$SEEDS" <"$f" | tail -1)
  n=$(sed -n 's/^replays [0-9]* of \([0-9]*\) samples.*/\1/p' <<<"$line")
  k=$(sed -n 's/.*: \([0-9]*\) with a claim$/\1/p' <<<"$line")
  streams=$((streams + SEEDS)) with_claim=$((with_claim + k)) samples=$((samples + SEEDS * n))
done
echo "bootstrap: $streams replayed streams ($SEEDS seeds per log, $samples samples): $with_claim with a candidate claim."
