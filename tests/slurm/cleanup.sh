#!/usr/bin/env bash
# CTest fixture: the plugin removed and every daemon of the cluster stopped.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
bash "$SRC/scripts/cluster.sh" plugin --remove || true
bash "$SRC/scripts/cluster.sh" down
