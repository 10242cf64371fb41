#!/usr/bin/env bash
# A hostile report directory (issue #19): full (ENOSPC), read-only, or with a
# symlink or a FIFO planted at every name the supervisor writes (X.json,
# X.txt, X.dot, X.svg). Each time a real hang must still be acted on (the
# command killed, exit 3) within the usual time: nothing followed, nothing
# blocked, and a failure logged with the path and the reason. The three
# watches run at once to keep the test short. Full and read-only need root
# (mount); without it only the planted names are tested.
. "$(dirname "$0")/lib.sh"
NP=2; MPIEXEC=(mpirun --oversubscribe -np "$NP")
mounts=()
unmount_all() {
  local m; for m in "${mounts[@]}"; do umount -l "$m" 2>/dev/null || true; done
  cleanup
}
trap unmount_all EXIT

# start NAME: a watch of a job whose last rank sleeps forever after 8 s, its
# report in $WORK/NAME/report.json.
start() {
  timeout --kill-after=5 120 "$JOBSENTRY" watch --report "$WORK/$1/report.json" --grace-ms 500 -- \
    "${MPIEXEC[@]}" "$HANGPROG" --seconds 100 --hang sleep --hang-after 8 \
    >"$WORK/$1.out" 2>"$WORK/$1.err" &
  echo $! >"$WORK/$1.pid"
}
finish() {  # finish NAME: the watch exited 3 (hang found, command killed)
  local status=0
  wait "$(cat "$WORK/$1.pid")" || status=$?
  [ "$status" -eq 3 ] || { tail -20 "$WORK/$1.err" >&2; fail "$1: jobsentry watch exited $status, expected 3"; }
  grep -q "terminating the command (action kill)" "$WORK/$1.err" || fail "$1: the command was not killed"
}
expect_logged() {  # expect_logged NAME TEXT: the failure names the path and the reason
  grep -q "could not write the report: cannot write $WORK/$1/report.json.*$2" "$WORK/$1.err" ||
    { tail -20 "$WORK/$1.err" >&2; fail "$1: no 'could not write the report' naming the path and '$2'"; }
}

# Planted: symlinks to files the user wants overwritten, FIFOs nobody reads.
# This watch also runs with a PATH whose first directory holds a fake dot and
# scancel: what the supervisor runs must not depend on PATH (docs/security.md).
mkdir -p "$WORK/planted" "$WORK/victims" "$WORK/fakebin"
for f in json dot; do echo precious >"$WORK/victims/$f"; ln -s "$WORK/victims/$f" "$WORK/planted/report.$f"; done
mkfifo "$WORK/planted/report.txt" "$WORK/planted/report.svg"
for tool in dot scancel scontrol; do
  printf '#!/bin/sh\necho "$0 $*" >>%s/fake-ran\n' "$WORK" >"$WORK/fakebin/$tool"; chmod +x "$WORK/fakebin/$tool"
done
PATH=$WORK/fakebin:$PATH start planted

if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$WORK/full" "$WORK/readonly"
  mount -t tmpfs -o size=64k tmpfs "$WORK/full" && mounts+=("$WORK/full")
  dd if=/dev/zero of="$WORK/full/filler" bs=4k 2>/dev/null || true  # until ENOSPC
  mount -t tmpfs -o size=64k tmpfs "$WORK/readonly" && mounts+=("$WORK/readonly")
  mount -o remount,ro "$WORK/readonly"
  start full
  start readonly
fi

finish planted
for f in json dot; do
  [ "$(cat "$WORK/victims/$f")" = precious ] || fail "a symlink at report.$f was followed"
done
for f in json txt dot svg; do
  [ -f "$WORK/planted/report.$f" ] && [ ! -L "$WORK/planted/report.$f" ] ||
    fail "report.$f is not a regular file in place of what was planted"
done
[ "$(jq -r .verdict "$WORK/planted/report.json")" = hang ] || fail "planted: the report has no hang verdict"
grep -q '<svg' "$WORK/planted/report.svg" || fail "planted: report.svg is not an SVG"
[ ! -e "$WORK/fake-ran" ] || fail "a program was taken from PATH: $(cat "$WORK/fake-ran")"
if [ "${#mounts[@]}" -eq 2 ]; then
  finish full
  expect_logged full "No space left on device"
  finish readonly
  expect_logged readonly "Read-only file system"
  tested="full, read-only and planted"
else
  tested="planted (not root: full and read-only skipped)"
fi
expect_no_leftovers
pass "report directory $tested: hang acted on, nothing followed or blocked, failures logged"
