#!/usr/bin/env bash
# Installs the Debian 12 packages jobsentry needs to build and test. Idempotent:
# only missing packages are installed, so a second run costs a dpkg query.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  catch2 libboost-dev libboost-program-options-dev nlohmann-json3-dev
  libunwind-dev libdw-dev libhwloc-dev
  openmpi-bin libopenmpi-dev gfortran
  python3 clang
  elfutils procps jq util-linux bc rt-tests strace
  graphviz
  slurm-wlm slurmctld slurmd slurmdbd libslurm-dev munge libmunge-dev mariadb-server mariadb-client
  passwd
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages ${missing[*]}; run as root (or install them) first" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
