#!/usr/bin/env bash
# CTest fixture: the one-node cluster up, this build's plugin and binaries
# installed where slurmstepd (root) and the test user can reach them (or the
# installed package's, JOBSENTRY_PACKAGED=1: installed.sh), and jobsentry.so
# enabled in plugstack.conf.d with the default test policy.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
# Outside CTest (scripts/demo.sh, bench/): the variables of the build in
# JOBSENTRY_BUILD (default build/), written there by tests/slurm/CMakeLists.txt.
if [ -z "${JOBSENTRY:-}" ]; then
  env_file=${JOBSENTRY_BUILD:-$SRC/build}/tests/slurm/cluster-env.sh
  [ -f "$env_file" ] || { echo "setup.sh: $env_file is missing: build first (bash scripts/build.sh)" >&2; exit 1; }
  . "$env_file"
fi
: "${JOBSENTRY:?set by CTest}" "${PLUGIN:?set by CTest}" "${HANGPROG:?set by CTest}" "${HANGPROG_MPICH:?set by CTest}" \
  "${RMALIB:?set by CTest}" "${RMA_PUT_PUT:?set by CTest}"
. "$SRC/tests/slurm/installed.sh"
bash "$SRC/scripts/cluster.sh" up
install -d -m 0755 /opt/jobsentry-test
if [ "${JOBSENTRY_PACKAGED:-0}" = 0 ]; then
  install -m 0755 "$JOBSENTRY" "$JOBSENTRY_BIN"
  install -m 0755 "$PLUGIN" "$PLUGIN_SO"
  install -m 0755 "$RMALIB" "$RMA_SO"
fi
install -m 0755 "$HANGPROG" /opt/jobsentry-test/hangprog
install -m 0755 "$HANGPROG_MPICH" /opt/jobsentry-test/hangprog_mpich
install -m 0755 "$RMA_PUT_PUT" /opt/jobsentry-test/rma_put_put
[ -z "${INJECT_LIB:-}" ] || install -m 0755 "$INJECT_LIB" /opt/jobsentry-test/libjobsentry-inject.so
[ -z "${RANDOM_ACCESS:-}" ] || install -m 0755 "$RANDOM_ACCESS" /opt/jobsentry-test/random_access
[ -z "${HALO_WAITALL:-}" ] || install -m 0755 "$HALO_WAITALL" /opt/jobsentry-test/halo_waitall
# The checkpointing example (ckpt_requeue.sh) and its library, found through
# LD_LIBRARY_PATH: the build tree need not be readable by the test user.
[ -z "${CKPT_APP:-}" ] || install -m 0755 "$CKPT_APP" /opt/jobsentry-test/ckpt_app
[ -z "${CKPT_LIB:-}" ] || install -m 0755 "$CKPT_LIB" "/opt/jobsentry-test/$(basename "$CKPT_LIB")"
bash "$SRC/scripts/cluster.sh" plugin "$PLUGIN_SO" supervisor="$JOBSENTRY_BIN" \
  log_dir=/var/log/jobsentry-test state_dir=/run/jobsentry-test log_samples=yes rma_lib="$RMA_SO"
echo "cluster up; $PLUGIN_SO enabled (supervisor $JOBSENTRY_BIN)"
