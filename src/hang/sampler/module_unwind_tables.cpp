#include "hang/sampler/module_unwind_tables.h"

#include <libunwind-ptrace.h>

#include "base/proc_files.h"

namespace jobsentry {

ModuleUnwindTables::ModuleUnwindTables(pid_t pid) : pid_(pid), shared_(_UPT_create(pid)) {}

ModuleUnwindTables::~ModuleUnwindTables() {
    for (const Segment& s : segments_) _UPT_destroy(s.upt);
    if (shared_) _UPT_destroy(shared_);
}

void* ModuleUnwindTables::for_ip(uint64_t ip) {
    for (const Segment& s : segments_)
        if (ip >= s.lo && ip < s.hi) return s.upt;
    if (segments_.size() >= kMaxSegments) return shared_;
    const auto mapping = read_mapping_containing(pid_, ip);
    // Not code (a wrong return address, in the heap or the stack): the shared handle says so, and
    // no slot goes to it (a long job's astray unwinds would fill them, leaving real code to the
    // shared handle's remaps).
    if (!mapping || !mapping->executable) return shared_;
    void* upt = _UPT_create(pid_);
    if (!upt) return shared_;
    segments_.push_back({mapping->lo, mapping->hi, upt});
    return upt;
}

}  // namespace jobsentry
