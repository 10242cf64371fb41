# Sourced by the tests: whether they run the installed Debian package's
# jobsentry (JOBSENTRY_PACKAGED=1, the Debian 13 stage, scripts/debian13-stage.sh)
# or this build's (0, the default). jobsentry_packaged is true for 1, false for
# 0, and ends the test with what to do for a missing package or another value.
jobsentry_packaged() {
  case ${JOBSENTRY_PACKAGED:-0} in
    0) return 1 ;;
    1) [ "$(dpkg-query -W -f='${Status}' jobsentry 2>/dev/null)" = "install ok installed" ] ||
         { echo "JOBSENTRY_PACKAGED=1, but the jobsentry package is not installed: apt install ./jobsentry_*.deb first" >&2; exit 1; }
       return 0 ;;
    *) echo "JOBSENTRY_PACKAGED='$JOBSENTRY_PACKAGED': accepted are 0 (this build) and 1 (the installed package)" >&2
       exit 1 ;;
  esac
}
