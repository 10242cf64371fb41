# Which jobsentry the Slurm tests run (sourced by setup.sh and lib.sh):
#   default                this build's, copied to /opt/jobsentry-test by setup.sh;
#   JOBSENTRY_PACKAGED=1   the installed Debian package's (tests/packaged.sh):
#                          /usr/bin/jobsentry and the plugin in Slurm's plugin
#                          directory, as a site runs them.
. "$(dirname "${BASH_SOURCE[0]}")/../packaged.sh"
if jobsentry_packaged; then
  JOBSENTRY_BIN=/usr/bin/jobsentry
  PLUGIN_SO=$(dpkg-query -L jobsentry | grep '/slurm-wlm/jobsentry\.so$' | head -1)
  RMA_SO=$(dpkg-query -L jobsentry | grep '/libjobsentry-rmacheck\.so$' | head -1)
else
  JOBSENTRY_BIN=/opt/jobsentry-test/jobsentry
  PLUGIN_SO=/opt/jobsentry-test/jobsentry.so
  RMA_SO=/opt/jobsentry-test/libjobsentry-rmacheck.so
fi
