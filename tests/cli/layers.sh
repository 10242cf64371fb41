#!/usr/bin/env bash
# The layers of src/ point one way (src/CMakeLists.txt, docs/architecture.md):
# base <- hang <- slurm <- cli, and every tool on base (and other tools) only.
# Fails when a library links or a source includes a layer above it, and when
# libjobsentry_ckpt.so (linked into users' programs) needs more than the C
# and C++ runtimes and its MPI.
#   LAYERS=build/layers.txt (cmake/layers.cmake) SRC=source tree LIBDIR=build/lib
set -euo pipefail
: "${LAYERS:?set by CTest}" "${SRC:?set by CTest}" "${LIBDIR:?set by CTest}"
problems=0
bad() { echo "FAIL: $*" >&2; problems=$((problems + 1)); }

# Links: "DIR TARGET: DEP DEP ..." per target.
hang_libs='jobsentry_(classifier|sampler|model|watch|wire|multinode)'
slurm_libs='jobsentry_(slurm|policy|policy_plain|spank)|libslurm'
tool_libs='jobsentry_(noise|noise_cli|simulator|ckpt_core|checkpoint|ckpt_command|rma_[a-z_]+|trace_[a-z_]+|loggp|preload_launch)'
while IFS= read -r line; do
  dir=${line%% *}
  rest=${line#* }
  target=${rest%%:*}
  deps=" ${rest#*:} "
  forbidden=""
  case $dir in
    src/base) forbidden="$hang_libs|$slurm_libs|$tool_libs|libmunge|libmpi|MPI::" ;;
    src/hang) forbidden="$slurm_libs|$tool_libs" ;;
    src/tools/*) forbidden="$hang_libs|$slurm_libs|libmunge" ;;
    *) continue ;;
  esac
  hit=$(tr ' ' '\n' <<<"$deps" | grep -E "(^|/)($forbidden)" | head -3 | tr '\n' ' ' || true)
  [ -z "$hit" ] || bad "$dir's $target links a layer above it: $hit"
done <"$LAYERS"

# Includes: every project include names its folder from src/.
check_includes() {  # check_includes DIR FORBIDDEN-PREFIX-REGEX
  local hits
  hits=$(grep -rnE "^#include \"($2)" "$SRC/src/$1" --include='*.h' --include='*.cpp' --include='*.c' || true)
  [ -z "$hits" ] || bad "src/$1 includes a layer above it:"$'\n'"$hits"
}
check_includes base 'hang/|slurm/|tools/|cli/'
check_includes hang 'slurm/|tools/|cli/'
check_includes tools 'hang/|slurm/|cli/'
check_includes slurm 'cli/'

# What users link: the checkpoint library needs its MPI and the runtimes, nothing of ours or Slurm's.
for lib in libjobsentry_ckpt.so libjobsentry_ckpt_mpich.so; do
  [ -f "$LIBDIR/$lib" ] || { bad "$LIBDIR/$lib is missing"; continue; }
  needed=$(readelf -d "$LIBDIR/$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  extra=$(grep -vE '^(libc|libm|libstdc\+\+|libgcc_s|ld-linux[-a-z0-9_]*)\.so|^libmpi(ch)?\.so' <<<"$needed" || true)
  [ -z "$extra" ] || bad "$lib needs more than libc, libm, libstdc++, libgcc_s and its MPI: $(echo $extra)"
  echo "$lib needs: $(echo $needed)"
done

[ "$problems" -eq 0 ] || exit 1
echo "PASS: layers point one way ($(wc -l <"$LAYERS") targets); the checkpoint library needs only the runtimes and MPI"
