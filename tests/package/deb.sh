#!/usr/bin/env bash
# The site install of docs/packaging.md, end to end on this machine: build
# the .deb, `apt install ./jobsentry_*.deb`, check what it put where (the
# plugin in Slurm's PluginDir, a plugstack example that enables nothing),
# catch a hang with the installed binary, then remove it while a supervisor
# of the package runs: no process, no plugin left; purge takes the conffile.
# Also run inside the Debian 13 root (scripts/test-debian13.sh), with
# PACKAGE_BUILD naming the build tree to package.
set -euo pipefail
. "$(dirname "$0")/../contains.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "root only (apt install)"
work=$(mktemp -d /tmp/jobsentry-deb.XXXXXX)
watcher=""
cleanup() {
  [ -z "$watcher" ] || kill -KILL "$watcher" 2>/dev/null || true
  dpkg -s jobsentry >/dev/null 2>&1 && apt-get purge -y -qq jobsentry >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

deb=$(bash "$top/scripts/package.sh" "${PACKAGE_BUILD:-$top/build-deb}" 2>"$work/build.log") || { tail -20 "$work/build.log"; fail "scripts/package.sh failed"; }
v=$(awk '$2 == "SLURM_VERSION_NUMBER" { print $3 }' /usr/include/slurm/slurm_version.h)
series=$((v >> 16)).$(printf %02d $(((v >> 8) & 255)))
[[ "$(basename "$deb")" == jobsentry_*+slurm"$series"_*.deb ]] || fail "$deb is not named for Slurm $series"
dpkg-deb -f "$deb" Depends | contains "slurmd (>= $series~)" || fail "$deb does not depend on slurmd $series"

# A first install: a package left by an earlier run (whose conffile the
# slurm tests may have rewritten or deleted) is purged first.
dpkg -s jobsentry >/dev/null 2>&1 && { apt-get purge -y -qq jobsentry >/dev/null 2>&1 || fail "apt purge of an earlier jobsentry failed"; }
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log"; fail "apt install $deb failed"; }
plugin=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/slurm-wlm/jobsentry.so
for f in /usr/bin/jobsentry /usr/bin/jobsentry-mpicc "$plugin" /usr/lib/libjobsentry-rmacheck.so /usr/lib/libjobsentry-rmacheck-mpich.so /usr/lib/libjobsentry-rmacheck-hooks.a \
         /usr/lib/libjobsentry_ckpt.so /usr/lib/libjobsentry_ckpt_mpich.so /usr/include/jobsentry_ckpt.h /usr/lib/jobsentry/jobsentry-loggp-probe /usr/share/doc/jobsentry/README.md \
         /etc/slurm/plugstack.conf.d/jobsentry.conf; do
  [ -e "$f" ] || fail "the package did not install $f"
done
nm -D --defined-only "$plugin" | contains -w slurm_spank_init || fail "$plugin exports no slurm_spank_init"
# The installed compiler wrapper finds its hooks archive and module, and the loop-summary pass
# plugin where the build had llvm-dev (it is in the package exactly then).
if command -v clang >/dev/null; then
  /usr/bin/jobsentry-mpicc -O2 -o "$work/walk" "$top/tests/rma/loop_walk.c" >"$work/cc.log" 2>&1 ||
    { cat "$work/cc.log"; fail "the installed jobsentry-mpicc could not build a program"; }
  if [ -e /usr/lib/libjobsentry-rmacheck-loops.so ]; then
    summaries=$(objdump -d "$work/walk" | grep -c 'call.*<__jobsentry_rma_range>' || true)
    [ "$summaries" -gt 0 ] || fail "the installed jobsentry-mpicc did not use its pass plugin"
  fi
fi
grep -qv '^[[:space:]]*\(#\|$\)' /etc/slurm/plugstack.conf.d/jobsentry.conf &&
  fail "the package's plugstack example enables something by itself"
grep -q '^#optional jobsentry.so' /etc/slurm/plugstack.conf.d/jobsentry.conf || fail "no commented plugstack line"

# The installed binary at work: a rank asleep outside MPI is caught.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
/usr/bin/jobsentry watch --report "$work/r.json" -- \
  mpirun --oversubscribe -np 4 "$HANGPROG" --seconds 120 --hang sleep --hang-after 5 >"$work/watch.log" 2>&1 || true
[ "$(jq -r .verdict "$work/r.json" 2>/dev/null)" = hang ] || { tail -20 "$work/watch.log"; fail "the installed jobsentry did not catch the hang"; }

# Remove while a supervisor of the package runs: prerm ends it.
/usr/bin/jobsentry watch -- sleep 600 >/dev/null 2>&1 &
watcher=$!
sleep 1
[ "$(readlink /proc/$watcher/exe)" = /usr/bin/jobsentry ] || fail "the package's jobsentry did not start"
apt-get remove -y -qq jobsentry >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt remove failed"; }
# Every process of the package's binaries gone within 10 s (one find for every process: a readlink
# per process in the shell took 4-5 s).
for _ in $(seq 50); do
  left=$(find /proc -mindepth 2 -maxdepth 2 -name exe -lname '/usr/bin/jobsentry*' 2>/dev/null | head -1 || true)
  [ -n "$left" ] || break
  sleep 0.2
done
[ -z "$left" ] || fail "a jobsentry process outlived the package: ${left%/exe}"
[ ! -e "$plugin" ] || fail "the plugin outlived the package"
[ ! -e /usr/bin/jobsentry ] || fail "/usr/bin/jobsentry outlived the package"
grep -qv '^[[:space:]]*\(#\|$\)' /etc/slurm/plugstack.conf.d/jobsentry.conf 2>/dev/null && fail "an enabled plugstack line remains"
apt-get purge -y -qq jobsentry >/dev/null 2>&1 || fail "apt purge failed"
[ ! -e /etc/slurm/plugstack.conf.d/jobsentry.conf ] || fail "purge left the conffile"
echo "PASS: $(basename "$deb"): installed, caught a hang, removed with its running supervisor ended, purged"
