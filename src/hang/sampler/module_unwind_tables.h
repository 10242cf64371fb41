// libunwind-ptrace's unwind-table lookups, one handle per mapped code segment
// of a process. A _UPT handle keeps the ELF image of the last segment it
// looked up; an unwind through pw.x, libmpi, libc and back asks for another
// segment at nearly every frame, and each change costs a read of
// /proc/PID/maps and an mmap of the file (1.4 per sample on a Quantum
// ESPRESSO rank). With a handle per segment, each segment is found once per
// process. At most kMaxSegments handles; lookups beyond go to a shared one.
// Not thread-safe (one per StackWalker's process cache).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace jobsentry {

class ModuleUnwindTables {
public:
    static constexpr size_t kMaxSegments = 48;

    explicit ModuleUnwindTables(pid_t pid);
    ~ModuleUnwindTables();
    ModuleUnwindTables(const ModuleUnwindTables&) = delete;
    ModuleUnwindTables& operator=(const ModuleUnwindTables&) = delete;

    // The _UPT handle for lookups of ip (never null while shared() is not).
    void* for_ip(uint64_t ip);
    void* shared() const { return shared_; }
    size_t segments() const { return segments_.size(); }

private:
    struct Segment {
        uint64_t lo, hi;
        void* upt;
    };
    pid_t pid_;
    void* shared_ = nullptr;
    std::vector<Segment> segments_;
};

}  // namespace jobsentry
