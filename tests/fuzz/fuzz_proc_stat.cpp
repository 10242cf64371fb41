// /proc/PID/stat and /proc/PID/task/TID/stat (stackwalker/proc_files.h
// parse_proc_stat): the comm is the user's, with any bytes in it.
#include "fuzz_common.h"
#include "base/proc_files.h"

FUZZ_TEXT_TARGET(text) {
    if (auto st = jobsentry::parse_proc_stat(text)) FUZZ_CHECK(st->comm.size() < text.size());
}
