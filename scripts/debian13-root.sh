#!/usr/bin/env bash
# A Debian 13 (trixie) root file system for the platform tests (issue #16,
# docs/porting-debian13.md): made with debootstrap from the Debian mirror the
# host's apt sources name (never a mirror written here), entered with chroot
# and bind mounts of /proc, /sys and /dev, which are always unmounted again.
#   bash scripts/debian13-root.sh create        debootstrap (once; kept in $ROOT)
#   bash scripts/debian13-root.sh run CMD...    CMD inside, a fresh copy of the tree at /src
#                                               (build elsewhere, e.g. /root/build, to keep it)
#   bash scripts/debian13-root.sh destroy       unmount and delete the root
# ROOT defaults to /var/tmp/jobsentry-trixie.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${JOBSENTRY_TRIXIE_ROOT:-/var/tmp/jobsentry-trixie}
SUITE=trixie
say() { echo "debian13-root: $*" >&2; }
die() { say "$*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "root only (debootstrap, chroot, mount)"

# The URI of the host's Debian archive (not its security archive), from the
# one-line or the deb822 sources.
host_mirror() {
  local f uri
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /=/) { u = $i; s = $(i+1); break }
                             if (s !~ /-security$/ && s !~ /-updates$/ && s !~ /-backports$/) { print u; exit } }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    uri=$(awk 'BEGIN { RS = ""; FS = "\n" }
               { u = ""; s = ""; t = ""
                 for (i = 1; i <= NF; i++) {
                   if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); sub(/[ \t].*/, "", u) }
                   if ($i ~ /^Suites:/) s = $i
                   if ($i ~ /^Types:/) t = $i }
                 if (t ~ /deb( |$)/ && s !~ /-security/ && u != "") { print u; exit } }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
}

# Every process whose root is $ROOT (daemons a command there left running,
# e.g. after a failure): TERM, then KILL 5 s later, so the mounts can go.
stop_root_processes() {
  local p pids=() real
  real=$(readlink -f "$ROOT")
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$real" ] && pids+=("${p#/proc/}")
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  say "stopping ${#pids[@]} process(es) left in $ROOT: ${pids[*]}"
  kill -TERM "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 25); do
    sleep 0.2
    local alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive -eq 1 ] || return 0
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

mounted=()
unmount_all() {
  local i
  [ ${#mounted[@]} -eq 0 ] || stop_root_processes
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" || true; done
  mounted=()
}
mount_all() {
  local d
  # /dev and /sys with what is mounted below them (/dev/shm for MPI's
  # shared memory, /dev/pts, the cgroup file systems), kept from propagating back.
  for d in proc sys dev; do
    mkdir -p "$ROOT/$d"
    mountpoint -q "$ROOT/$d" && continue
    case $d in
      proc) mount --bind /proc "$ROOT/proc" ;;
      *) mount --rbind "/$d" "$ROOT/$d"; mount --make-rslave "$ROOT/$d" ;;
    esac
    mounted+=("$ROOT/$d")
  done
}
trap unmount_all EXIT
trap "exit 1" INT TERM HUP

create() {
  [ -x "$ROOT/usr/bin/apt-get" ] && { say "$ROOT exists"; return; }
  command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap (scripts/install-deps.sh does)"
  local mirror
  mirror=$(host_mirror)
  [ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list{,.d}: add the archive this host installs from, then run again"
  say "debootstrap --variant=minbase $SUITE $ROOT $mirror"
  rm -rf "$ROOT.partial"
  timeout 900 debootstrap --variant=minbase "$SUITE" "$ROOT.partial" "$mirror" >"$ROOT.log" 2>&1 ||
    { tail -5 "$ROOT.log" >&2; die "debootstrap of $SUITE from $mirror failed (log: $ROOT.log): is the mirror reachable, and does it carry $SUITE?"; }
  # Services never start inside the root: packages install, nothing runs.
  printf '#!/bin/sh\nexit 101\n' >"$ROOT.partial/usr/sbin/policy-rc.d"
  chmod 0755 "$ROOT.partial/usr/sbin/policy-rc.d"
  echo "deb $mirror $SUITE main" >"$ROOT.partial/etc/apt/sources.list"
  mv "$ROOT.partial" "$ROOT"
}

run() {
  [ -x "$ROOT/usr/bin/apt-get" ] || die "no root at $ROOT: bash scripts/debian13-root.sh create"
  mount_all
  # The root shares the host's network: its names too (MPICH's Hydra proxies
  # connect back to mpiexec by the host's name).
  cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
  cp /etc/hosts "$ROOT/etc/hosts"
  # The tree as it is (not only what is committed), without build output.
  rm -rf "$ROOT/src"; mkdir -p "$ROOT/src"
  tar -C "$top" --exclude=./build --exclude=./build-deb --exclude=./.git --exclude=./bench-out -cf - . | tar -C "$ROOT/src" -xf -
  chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

case "${1:-}" in
  create) create ;;
  run) shift; [ $# -gt 0 ] || die "run needs a command"; run "$@" ;;
  destroy)
    [ ! -d "$ROOT" ] || stop_root_processes
    for d in dev sys proc; do ! mountpoint -q "$ROOT/$d" || umount -R "$ROOT/$d"; done
    grep -q " $ROOT/" /proc/mounts && die "something is still mounted under $ROOT: not deleting it"
    rm -rf --one-file-system "$ROOT" "$ROOT.partial" "$ROOT.log" ;;
  *) die "usage: debian13-root.sh create | run CMD... | destroy" ;;
esac
