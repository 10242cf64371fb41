#!/usr/bin/env bash
# Load campaign (issue #19): SEQ short watched jobs in a row, then CONC watched
# jobs at once, each `jobsentry watch -- mpirun -np 2 hangprog`. Every 10th job
# of the series hangs (rank 1 sleeps) so the kill path is loaded too.
# Measures what the jobs may leave behind: processes (jobsentry, mpirun,
# hangprog, by this run's environment tag), report-dir temp files, files in the
# jobs' TMPDIR and Open MPI's shared-memory dir, and per watch process its max
# VmRSS and open fds (sampled every 0.1 s), first 10 vs last 10 jobs; and the
# files a rank holds open, watched vs unwatched (a descriptor of ours leaked into it).
#   nice -n 19 bash bench/load_campaign.sh [SEQ=200] [CONC=16] [SECONDS=2]
. "$(dirname "$0")/common.sh"
SEQ=${1:-200} CONC=${2:-16} RUN_S=${3:-2}
# Open MPI's session dir and vader segments go under the scratch dir, so what
# is left there is this run's alone (other users share /tmp and /dev/shm).
mkdir -p "$SCRATCH/tmp" "$SCRATCH/shm" "$SCRATCH/rep" "$SCRATCH/stats"
export TMPDIR=$SCRATCH/tmp OMPI_MCA_btl_vader_backing_directory=$SCRATCH/shm
TAG=$SCRATCH

tagged() {  # pids of this run's processes named jobsentry, mpirun, prterun, orted or hangprog
  local pid name
  for name in jobsentry mpirun prterun orted hangprog; do
    for pid in $(pgrep -x "$name"); do
      if grep -qz "^JOBSENTRY_BENCH_TAG=$TAG\$" "/proc/$pid/environ" 2>/dev/null; then echo "$pid"; fi
    done
  done
  return 0
}
nfds() { { ls "/proc/$1/fd" 2>/dev/null || true; } | wc -l; }

max() { if [ "${2:-0}" -gt "$1" ]; then echo "$2"; else echo "$1"; fi; }
# rank_files JOB: the most fds to files (not a pipe, socket, anon inode, /dev
# or Open MPI's session and vader dirs under SCRATCH: Open MPI's own) that a
# hangprog rank of JOB (LOAD_JOB) holds now. A descriptor of jobsentry's that
# leaked into the job would show here.
rank_files() {
  local c m=0
  for c in $(pgrep -x hangprog); do
    grep -qz "^LOAD_JOB=$1\$" "/proc/$c/environ" 2>/dev/null || continue
    find "/proc/$c/fd" -mindepth 1 -printf '%l\n' 2>/dev/null | grep -vE '^(pipe|socket|anon_inode):|^/dev/' |
      grep -v "^$SCRATCH/" >"$SCRATCH/stats/$1.files.$c" || true
    cat "$SCRATCH/stats/$1.files.$c" >>"$SCRATCH/stats/rank-files"
    m=$(max "$m" "$(wc -l <"$SCRATCH/stats/$1.files.$c")")
  done
  echo "$m"
}

# sample PID JOB: until PID ends, its max VmRSS (kB), max fd count, and the max
# rank_files of JOB, as "rss fds rankfiles" in stats/JOB.s.
sample() {
  local pid=$1 rss=0 fds=0 rfds=0
  while [ -d "/proc/$pid" ]; do
    rss=$(max "$rss" "$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)")
    fds=$(max "$fds" "$(nfds "$pid")")
    rfds=$(max "$rfds" "$(rank_files "$2")")
    sleep 0.1
  done
  echo "$rss $fds $rfds" >"$SCRATCH/stats/$2.s"
}

# job I [hang]: one watched job; its status goes to stats/I.status.
job() {
  local i=$1 args=(--seconds "$RUN_S")
  if [ "${2:-}" = hang ]; then args=(--seconds 60 --hang sleep --hang-rank 1 --hang-after 1); fi
  LOAD_JOB=$i "$JOBSENTRY" watch --grace-ms 1000 --report "$SCRATCH/rep/job$i.json" -- \
    mpirun --oversubscribe -np 2 "$HANGPROG" "${args[@]}" >/dev/null 2>"$SCRATCH/stats/$i.err" &
  local w=$!
  sample "$w" "$i" &
  local s=$! st=0
  wait "$w" || st=$?
  wait "$s"
  echo "$st" >"$SCRATCH/stats/$i.status"
}

# An unwatched job: the files a rank holds open without jobsentry.
LOAD_JOB=base mpirun --oversubscribe -np 2 "$HANGPROG" --seconds "$RUN_S" >/dev/null 2>&1 &
b=$!
base_rfds=0
while [ -d "/proc/$b" ]; do base_rfds=$(max "$base_rfds" "$(rank_files base)"); sleep 0.1; done
wait "$b" || true

t0=$(date +%s.%N)
for i in $(seq 1 "$SEQ"); do
  if [ $((i % 10)) -eq 0 ]; then job "$i" hang; else job "$i"; fi
done
t1=$(date +%s.%N)
for i in $(seq 1 "$CONC"); do job "c$i" & done
wait
t2=$(date +%s.%N)
sleep 2  # let the last exits settle before counting what is left

left_procs=$(tagged | wc -l)
left_temp=$(find "$SCRATCH/rep" -name '*.json.*' -o -name '*.txt.*' -o -name '*.dot.*' -o -name '*.svg.*' | wc -l)
left_tmp=$(find "$SCRATCH/tmp" -mindepth 1 | wc -l)
left_shm=$(find "$SCRATCH/shm" -mindepth 1 | wc -l)

# Wrong statuses: 0 expected, 3 for the hang jobs.
bad=0
for i in $(seq 1 "$SEQ") $(printf 'c%s ' $(seq 1 "$CONC")); do
  want=0
  case $i in c*) ;; *) if [ $((i % 10)) -eq 0 ]; then want=3; fi ;; esac
  if [ "$(cat "$SCRATCH/stats/$i.status")" != "$want" ]; then
    bad=$((bad + 1)); echo "job $i: status $(cat "$SCRATCH/stats/$i.status"), expected $want" >&2
    tail -3 "$SCRATCH/stats/$i.err" >&2
  fi
done

col() {  # col FIELD JOBS...: "median max" of field FIELD of the jobs' samples
  local f=$1; shift
  for i in "$@"; do awk -v f="$f" '{print $f}' "$SCRATCH/stats/$i.s"; done | sort -g |
    awk '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%s %s", m, v[NR]}'
}
healthy() { local i; for i in $(seq "$1" "$2"); do if [ $((i % 10)) -ne 0 ]; then echo "$i"; fi; done; }
first=$(healthy 1 11 | head -10); last=$(healthy $((SEQ - 11)) "$SEQ" | tail -10)
hangs=$(seq 10 10 "$SEQ"); conc=$(printf 'c%s ' $(seq 1 "$CONC"))
rss_first=$(col 1 $first) rss_last=$(col 1 $last) rss_all=$(col 1 $(seq 1 "$SEQ")) rss_conc=$(col 1 $conc)
fd_first=$(col 2 $first) fd_last=$(col 2 $last) fd_all=$(col 2 $(seq 1 "$SEQ")) fd_conc=$(col 2 $conc)
rfd_all=$(col 3 $(seq 1 "$SEQ") $conc)

echo "| what (${SEQ} jobs in a row, ${RUN_S} s each, every 10th hangs; then ${CONC} at once) | value |"
echo "|---|---|"
printf '| time: series / concurrent (s) | %.0f / %.0f |\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
echo "| jobs with a wrong exit status (0, or 3 for a hang) | $bad |"
echo "| processes left (jobsentry, mpirun, prterun, orted, hangprog) | $left_procs |"
echo "| report temp files left (mkostemp X.XXXXXX) | $left_temp |"
echo "| files left in the jobs' TMPDIR (Open MPI session dirs) | $left_tmp |"
echo "| files left in Open MPI's vader dir | $left_shm |"
echo "| watch max VmRSS kB, median / max: first 10 healthy jobs | ${rss_first/ / / } |"
echo "| watch max VmRSS kB, median / max: last 10 healthy jobs | ${rss_last/ / / } |"
echo "| watch max VmRSS kB, median / max: all $SEQ / the $CONC concurrent | ${rss_all/ / / } / ${rss_conc/ / / } |"
echo "| watch max open fds, median / max: first 10 / last 10 healthy | ${fd_first/ / / } / ${fd_last/ / / } |"
echo "| watch max open fds, median / max: all $SEQ / the $CONC concurrent | ${fd_all/ / / } / ${fd_conc/ / / } |"
echo "| rank fds to files (not pipe, socket, /dev, Open MPI's dirs): unwatched / watched median, max | $base_rfds / ${rfd_all/ /, } |"
if [ -s "$SCRATCH/stats/rank-files" ]; then
  echo; echo "files seen open in ranks: $(sort -u "$SCRATCH/stats/rank-files" | tr '\n' ' ')"
fi
[ "$bad$left_procs$left_temp" = 000 ]
