# Sourced by the mpi and rma tests: which jobsentry they run. This build's
# (JOBSENTRY, set by CTest), or the installed package's /usr/bin/jobsentry,
# which finds its preload modules in /usr/lib (tests/packaged.sh).
. "$(dirname "${BASH_SOURCE[0]}")/packaged.sh"
JOBSENTRY=${JOBSENTRY:?set by CTest}
if jobsentry_packaged; then JOBSENTRY=/usr/bin/jobsentry; fi
