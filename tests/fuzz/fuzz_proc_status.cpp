// /proc/PID/status (stackwalker/proc_files.h): the four uids that decide
// whether a process is the job's, and TracerPid.
#include "fuzz_common.h"
#include "base/proc_files.h"

FUZZ_TEXT_TARGET(text) {
    for (uid_t uid : {0u, 1000u}) jobsentry::status_owned_by(text, uid);
    jobsentry::status_traced(text);
}
