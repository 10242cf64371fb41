#!/usr/bin/env bash
# Inside the Debian 13 root (scripts/test-debian13.sh runs it): one build with
# the tests and the package, the package test, the unit and cli labels.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
bash /src/scripts/install-deps.sh build >/dev/null
apt-get install -y -qq --no-install-recommends jq procps graphviz strace >/dev/null  # what the unit and cli tests call
grep -E '^(PRETTY_NAME)=' /etc/os-release
echo "Slurm $(dpkg-query -W -f='${Version}' libslurm-dev), Open MPI $(dpkg-query -W -f='${Version}' libopenmpi-dev), GCC $(gcc -dumpversion)"
JOBSENTRY_BUILD_TESTS=ON PACKAGE_BUILD=/root/build HANGPROG=/root/build/tests/programs/hangprog \
  bash /src/tests/package/deb.sh
cd /root/build
ctest --output-on-failure -L 'unit|cli'
