# Sourced by the mpi and rma tests: which jobsentry they run. This build's
# (JOBSENTRY, set by CTest), or with JOBSENTRY_PACKAGED=1 the installed
# package's /usr/bin/jobsentry, which finds its preload modules in /usr/lib
# (the Debian 13 stage, scripts/debian13-stage.sh).
JOBSENTRY=${JOBSENTRY:?set by CTest}
case ${JOBSENTRY_PACKAGED:-0} in
  0) ;;
  1) [ -x /usr/bin/jobsentry ] && dpkg-query -W -f='${Status}' jobsentry 2>/dev/null | grep -q 'install ok installed' ||
       { echo "JOBSENTRY_PACKAGED=1, but the jobsentry package is not installed: apt install ./jobsentry_*.deb first" >&2; exit 1; }
     JOBSENTRY=/usr/bin/jobsentry ;;
  *) echo "JOBSENTRY_PACKAGED='$JOBSENTRY_PACKAGED': accepted are 0 (this build) and 1 (the installed package)" >&2
     exit 1 ;;
esac
