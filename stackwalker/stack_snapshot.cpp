#include "stack_snapshot.h"

#include <libunwind-ptrace.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include <algorithm>
#include <cstring>

namespace jobsentry {
namespace {

thread_local const SnapshotUnwind* t_current = nullptr;

// One word of the live process (code, unwind tables), read without stopping it.
bool read_live(pid_t pid, unw_word_t addr, unw_word_t* value) {
    iovec local{value, sizeof *value};
    iovec remote{reinterpret_cast<void*>(addr), sizeof *value};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(sizeof *value);
}

int access_mem(unw_addr_space_t, unw_word_t addr, unw_word_t* value, int write, void*) {
    const SnapshotUnwind* u = t_current;
    if (!u || write) return -UNW_EINVAL;
    const StackSnapshot& s = *u->snapshot;
    if (addr >= s.lo && addr - s.lo + sizeof *value <= s.bytes.size()) {
        std::memcpy(value, s.bytes.data() + (addr - s.lo), sizeof *value);
        return 0;
    }
    return read_live(s.pid, addr, value) ? 0 : -UNW_EINVAL;
}

int access_reg(unw_addr_space_t, unw_regnum_t reg, unw_word_t* value, int write, void*) {
    const SnapshotUnwind* u = t_current;
    if (!u || write || reg < 0 || reg > UNW_TDEP_LAST_REG) return -UNW_EBADREG;
    *value = u->snapshot->regs[reg];
    return 0;
}

int access_fpreg(unw_addr_space_t, unw_regnum_t, unw_fpreg_t*, int, void*) { return -UNW_EBADREG; }

int resume(unw_addr_space_t, unw_cursor_t*, void*) { return -UNW_EINVAL; }

int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t* info, int need_unwind_info, void*) {
    const SnapshotUnwind* u = t_current;
    return u ? _UPT_find_proc_info(as, ip, info, need_unwind_info, u->upt) : -UNW_ENOINFO;
}

void put_unwind_info(unw_addr_space_t as, unw_proc_info_t* info, void*) {
    if (const SnapshotUnwind* u = t_current) _UPT_put_unwind_info(as, info, u->upt);
}

int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t* addr, void*) {
    const SnapshotUnwind* u = t_current;
    return u ? _UPT_get_dyn_info_list_addr(as, addr, u->upt) : -UNW_ENOINFO;
}

int get_proc_name(unw_addr_space_t, unw_word_t, char*, size_t, unw_word_t*, void*) {
    return -UNW_ENOINFO;  // names come from libdw (symbolizer.h)
}

// By name: the members a newer libunwind adds (get_elf_filename, get_proc_ip_range, ...) are
// optional and stay null.
unw_accessors_t make_accessors() {
    unw_accessors_t a{};
    a.find_proc_info = find_proc_info;
    a.put_unwind_info = put_unwind_info;
    a.get_dyn_info_list_addr = get_dyn_info_list_addr;
    a.access_mem = access_mem;
    a.access_reg = access_reg;
    a.access_fpreg = access_fpreg;
    a.resume = resume;
    a.get_proc_name = get_proc_name;
    return a;
}
unw_accessors_t g_accessors = make_accessors();

}  // namespace

bool take_snapshot(pid_t pid, StackSnapshot* out) {
#if defined(__x86_64__)
    user_regs_struct r{};
    if (ptrace(PTRACE_GETREGS, pid, nullptr, &r) != 0) return false;
    const uint64_t by_number[] = {r.rax, r.rdx, r.rcx, r.rbx, r.rsi, r.rdi, r.rbp, r.rsp, r.r8,
                                  r.r9,  r.r10, r.r11, r.r12, r.r13, r.r14, r.r15, r.rip};
    static_assert(sizeof by_number / sizeof by_number[0] == UNW_TDEP_LAST_REG + 1, "x86-64 register numbers");
    out->pid = pid;
    std::memcpy(out->regs, by_number, sizeof by_number);
    // From below the stack pointer (the red zone a leaf function may use) up; a read that runs
    // off the top of the stack's mapping stops there and keeps what it read.
    constexpr uint64_t kRedZone = 128;
    out->lo = r.rsp > kRedZone ? r.rsp - kRedZone : 0;
    // One remote piece per page, so that a read stopped by the end of the mapping keeps every whole
    // page before it (a partial transfer never splits a piece).
    constexpr uint64_t kPage = 4096;
    out->bytes.resize(kSnapshotStackBytes);
    iovec local{out->bytes.data(), out->bytes.size()};
    std::vector<iovec> remote;
    for (uint64_t at = out->lo, end = out->lo + kSnapshotStackBytes; at < end;) {
        uint64_t next = std::min(end, (at / kPage + 1) * kPage);
        remote.push_back({reinterpret_cast<void*>(at), static_cast<size_t>(next - at)});
        at = next;
    }
    ssize_t got = process_vm_readv(pid, &local, 1, remote.data(), remote.size(), 0);
    out->bytes.resize(got > 0 ? static_cast<size_t>(got) : 0);
    return true;
#else
    (void)pid, (void)out;
    return false;
#endif
}

unw_accessors_t* snapshot_accessors() { return &g_accessors; }

SnapshotScope::SnapshotScope(const SnapshotUnwind* unwind) : previous_(t_current) { t_current = unwind; }
SnapshotScope::~SnapshotScope() { t_current = previous_; }

}  // namespace jobsentry
