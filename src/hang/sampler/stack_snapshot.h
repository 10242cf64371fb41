// What one stopped thread needs for its unwind: its registers and a copy of
// the top of its stack, taken during the ptrace-stop, so that the thread is
// let go at once and the unwind (milliseconds on a deep stack of a large
// binary: 4 ms median on NWChem's ranks) runs while it works on. Outside the
// copy, the unwind reads the live process with process_vm_readv: code and
// unwind tables, which do not change while it runs. Never the stack of a
// running thread: the thread may have returned past a frame, and frames mixed
// from two moments would be a call chain that never existed. So a stack deeper
// than the copy (kSnapshotStackBytes from the stack pointer's page to the top
// of its mapping: a Fortran code's large automatic arrays, a deep recursion),
// or one whose mapping is not found, is unwound before the thread is let go,
// the part beyond the copy read live (SnapshotUnwind::thread_stopped): held
// longer, but the copy stays bounded, in time and in the supervisor's memory.
// (A signal handler on an alternate stack is the exception: the interrupted
// stack is elsewhere, read live.)
//
// If the process exits in the milliseconds between the detach and the end of
// the unwind, reads of it fail and the sample's stack ends early (incomplete);
// a pid reused that fast would at worst give this one sample a wrong outer
// stack, from the copy's return addresses looked up in the new process's maps.
//
// x86-64 only (the registers); elsewhere take_snapshot says no and the caller
// unwinds during the stop as before.
#pragma once

#include <sys/types.h>

#include <libunwind.h>

#include <cstdint>
#include <vector>

#include "base/proc_files.h"
#include "hang/sampler/module_unwind_tables.h"
#include "hang/sampler/symbolizer.h"

namespace jobsentry {

struct StackSnapshot {
    pid_t pid = 0;
    uint64_t regs[UNW_TDEP_LAST_REG + 1] = {};  // by libunwind register number
    uint64_t lo = 0;         // address of bytes[0]: the start of the stack pointer's page
    uint64_t stack_end = 0;  // end of the mapping that holds the stack pointer (0: unknown)
    std::vector<unsigned char> bytes;  // the buffer: only grows, so it is not cleared per sample
    size_t copied = 0;                 // of which copied this time
    // The copy holds the stack up to the top of its mapping: the thread may go before the unwind.
    bool whole() const { return stack_end != 0 && lo + copied >= stack_end; }
    // Pages of the live process read during this sample's unwind (code and
    // unwind tables): libunwind reads a remote table one word at a time, 600
    // words a sample on a Quantum ESPRESSO rank (a system call each); a page
    // read once serves the rest. Emptied at every snapshot, so nothing read
    // outlives the unwind it was read for (a library may be unloaded between
    // samples). At most kLivePagesMax pages; beyond that, words are read alone.
    std::vector<uint64_t> live_page_addrs;
    std::vector<unsigned char> live_pages;  // kPageBytes per address above
};

constexpr size_t kPageBytes = 4096;
constexpr size_t kLivePagesMax = 64;

// Bytes of stack copied at most, from the stack pointer's page up (less at the top of the stack:
// a CP2K or NWChem rank's whole stack is 20-60 KB).
constexpr size_t kSnapshotStackBytes = 256 * 1024;

// Fills *out from thread pid, which must be in a ptrace-stop of ours, copying
// at most max_bytes of stack; whole() says whether that was all of it. *stack
// is the mapping of the stack pointer as last seen ({0, 0} at first), read
// again from /proc/PID/maps when the stack pointer is outside it. False when
// the registers or the stack pointer's own words cannot be read (or on a
// machine other than x86-64): then unwind during the stop.
bool take_snapshot(pid_t pid, size_t max_bytes, AddressRange* stack, StackSnapshot* out);

// libunwind accessors for a remote address space that unwinds from a snapshot.
// unw_init_remote's argument is a SnapshotUnwind; find_proc_info and the other
// unwind-table lookups go to libunwind-ptrace's (_UPT_*) with its handle.
struct SnapshotUnwind {
    StackSnapshot* snapshot = nullptr;
    void* upt = nullptr;  // _UPT_create(pid) of the same process
    ModuleUnwindTables* tables = nullptr;  // if set, table lookups use its handle for the ip's segment
    // If set, reads of what the mapped files hold unchanged (unwind tables, code) come from the
    // files' shared copies: a rank stopped at a random instruction of a polling loop misses
    // libunwind's register-rule cache for its innermost frames (6.5 misses a CP2K sample at
    // libunwind's default size, unwind_spaces.h), and each miss searched the remote table and
    // parsed an FDE word by word.
    Symbolizer* files = nullptr;
    // The file section the last such read came from: the next reads from it (some 4,000 words a
    // CP2K sample, as libunwind parses FDEs byte by byte) are copied without a call. Per unwind:
    // the section's bytes live as long as the file's BinarySymbols, which outlives the sample.
    mutable BinarySymbols::Span unchanged;
    mutable uint64_t table_lookups = 0;  // find_proc_info calls: libunwind's rule-cache misses
    // The thread is still in our ptrace-stop (a stack that is not whole()): the stack beyond the
    // copy may be read live.
    bool thread_stopped = false;
};
unw_accessors_t* snapshot_accessors();

// Makes `unwind` the one the accessors read while it lives: _UPT_find_proc_info
// calls them back with its own handle, not with unw_init_remote's argument.
class SnapshotScope {
public:
    explicit SnapshotScope(const SnapshotUnwind* unwind);
    ~SnapshotScope();
    SnapshotScope(const SnapshotScope&) = delete;
    SnapshotScope& operator=(const SnapshotScope&) = delete;

private:
    const SnapshotUnwind* previous_;
};

}  // namespace jobsentry
