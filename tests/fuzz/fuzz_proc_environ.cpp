// /proc/PID/environ (supervisor/discovery.h rank_from_environ): the rank
// variables of a NUL-separated block the user wrote.
#include "hang/watch/discovery.h"
#include "fuzz_common.h"

FUZZ_TEXT_TARGET(text) {
    if (auto rank = jobsentry::rank_from_environ(text)) FUZZ_CHECK(*rank >= 0 && *rank < (1 << 30));
}
