#!/usr/bin/env bash
# Replays the samples of recorded supervisor logs (log_samples=yes) through
# the current decision rule and its verification (bench/model_replay.cpp) and sets
# its first claim and its verdict beside what the recorded run did: its first
# claim (an alarm that verification cleared, or a hang) and its outcome. Logs
# written before the sample records replay the claims only (verdict "not replayed").
#   bash bench/model_replay.sh [LOG_DIR]   (default /var/log/jobsentry-test, the Slurm tests' logs;
#   bench-out/real_detection and bench-out/real_false_alarms hold the logs of bench/real_*.sh)
# Prints one row per log where the two differ, then a summary.
# SEEDS=N: then also replays N block-bootstrap streams of each hang-free log (model_replay --seeds:
# blocks of 50 samples drawn at random places; each candidate verified on what the recorded job did
# next) and totals the candidates and the hang verdicts over all of them: on hang-free logs every
# verdict is a false one.
. "$(dirname "$0")/common.sh"
DIR=${1:-/var/log/jobsentry-test}
REPLAY=$BUILD/bench/model_replay
[ -x "$REPLAY" ] || { echo "build first: bash scripts/build.sh" >&2; exit 1; }
echo "| log | samples | recorded first claim | replayed first claim | recorded outcome | replayed verdict |"
echo "|---|---|---|---|---|---|"
total=0 differ=0 new_on_hang_free=0 missed_now=0 verdicts_differ=0 replayed_logs=0
for f in "$DIR"/job_*.log "$DIR"/run_*.log; do  # Slurm supervisor logs; bench/real_*.sh runs
  [ -f "$f" ] || continue
  n=$(grep -c " S_move=" "$f" || true)
  [ "$n" -gt 0 ] || continue
  total=$((total + 1))
  recorded=$(awk '/ S_move=/{n++} /alarm cleared|HANG detected/{print n; exit}' "$f")
  out=$("$REPLAY" <"$f")
  replayed=$(sed -n 's/^claim at sample \([0-9]*\).*/\1/p' <<<"$out")
  verdict=$(sed -n 's/^verdict: //p' <<<"$out")
  if grep -q "HANG detected" "$f"; then outcome=hang; else outcome=no-hang; fi
  case $verdict in
    "hang verdict"*) v=hang ;;
    none*) v=no-hang ;;
    *) v="not replayed" ;;
  esac
  [ "$v" = "not replayed" ] || replayed_logs=$((replayed_logs + 1))
  [ "$v" = "not replayed" ] || [ "$v" = $outcome ] || verdicts_differ=$((verdicts_differ + 1))
  [ "${recorded:-none}" = "${replayed:-none}" ] && { [ "$v" = "not replayed" ] || [ "$v" = $outcome ]; } && continue
  differ=$((differ + 1))
  [ -z "$recorded" ] && [ -n "$replayed" ] && [ $outcome = no-hang ] && new_on_hang_free=$((new_on_hang_free + 1))
  [ -n "$recorded" ] && [ -z "$replayed" ] && missed_now=$((missed_now + 1))
  echo "| $(basename "$f") | $n | ${recorded:-none} | ${replayed:-none} | $outcome | $verdict |"
done
echo
echo "$total logs; $differ differ; $new_on_hang_free new candidates in runs that recorded none;" \
  "$missed_now recorded claims the current rule would not make; verdicts replayed on $replayed_logs logs" \
  "(with sample records), $verdicts_differ of them other than the recorded outcome."
[ -n "${SEEDS:-}" ] || exit 0
streams=0 with_claim=0 samples=0 candidates=0 verdicts=0 unverifiable=0 logs=0
for f in "$DIR"/job_*.log "$DIR"/run_*.log; do
  [ -f "$f" ] || continue
  grep -q " S_move=" "$f" || continue
  grep -q "HANG detected" "$f" && continue  # hang-free runs only
  # a log without sample records (written before them) only where it recorded no candidate, as before
  grep -q " record: " "$f" || ! grep -q "alarm cleared" "$f" || continue
  line=$("$REPLAY" --seeds "$SEEDS" <"$f" | tail -1)
  # replays S of N samples (blocks of B): C with a claim, K candidates, V with a hang verdict, U not verifiable
  read -r n c k v u < <(sed -n 's/^replays [0-9]* of \([0-9]*\) samples.*: \([0-9]*\) with a claim, \([0-9]*\) candidates, \([0-9]*\) with a hang verdict, \([0-9]*\) not verifiable$/\1 \2 \3 \4 \5/p' <<<"$line")
  logs=$((logs + 1)) streams=$((streams + SEEDS)) samples=$((samples + SEEDS * n))
  with_claim=$((with_claim + c)) candidates=$((candidates + k)) verdicts=$((verdicts + v)) unverifiable=$((unverifiable + u))
done
echo "bootstrap: $logs hang-free logs, $streams replayed streams ($SEEDS seeds per log, $samples samples):" \
  "$with_claim with a candidate, $candidates candidates in all; $verdicts false hang verdicts after the replayed" \
  "verification; $unverifiable streams stopped at a candidate they could not verify (logs without sample records)."
