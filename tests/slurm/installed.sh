# Which jobsentry the Slurm tests run (sourced by setup.sh and lib.sh):
#   default                this build's, copied to /opt/jobsentry-test by setup.sh;
#   JOBSENTRY_PACKAGED=1   the installed Debian package's (the Debian 13 stage,
#                          scripts/debian13-stage.sh): /usr/bin/jobsentry and the plugin
#                          in Slurm's plugin directory, as a site runs them.
case ${JOBSENTRY_PACKAGED:-0} in
  0) JOBSENTRY_BIN=/opt/jobsentry-test/jobsentry
     PLUGIN_SO=/opt/jobsentry-test/jobsentry.so
     RMA_SO=/opt/jobsentry-test/libjobsentry-rmacheck.so ;;
  1) dpkg-query -W -f='${Status}' jobsentry 2>/dev/null | grep -q 'install ok installed' ||
       { echo "JOBSENTRY_PACKAGED=1, but the jobsentry package is not installed: apt install ./jobsentry_*.deb first" >&2; exit 1; }
     JOBSENTRY_BIN=/usr/bin/jobsentry
     PLUGIN_SO=$(dpkg-query -L jobsentry | grep '/slurm-wlm/jobsentry\.so$' | head -1)
     RMA_SO=$(dpkg-query -L jobsentry | grep '/libjobsentry-rmacheck\.so$' | head -1) ;;
  *) echo "JOBSENTRY_PACKAGED='$JOBSENTRY_PACKAGED': accepted are 0 (this build) and 1 (the installed package)" >&2
     exit 1 ;;
esac
