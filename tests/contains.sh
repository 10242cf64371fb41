# contains [GREP-OPTION...] PATTERN: whether stdin has a line matching PATTERN.
# It reads all of stdin before grep looks: under pipefail, `cmd | grep -q`
# fails when grep exits at the first match and cmd dies of SIGPIPE while still
# writing (how `jobsentry watch --help | grep -q` failed a CI run).
contains() { local text; text=$(cat); grep -q "$@" <<<"$text"; }
