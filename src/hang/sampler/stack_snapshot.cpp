#include "hang/sampler/stack_snapshot.h"

#include <libunwind-ptrace.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

#include <algorithm>
#include <cstring>

namespace jobsentry {
namespace {

thread_local const SnapshotUnwind* t_current = nullptr;

// Bytes of the live process, read without stopping it.
bool read_remote(pid_t pid, uint64_t addr, void* into, size_t bytes) {
    iovec local{into, bytes};
    iovec remote{reinterpret_cast<void*>(addr), bytes};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == static_cast<ssize_t>(bytes);
}

// One word of the live process (code, unwind tables), through this sample's
// page cache (StackSnapshot::live_pages).
bool read_live(StackSnapshot& s, unw_word_t addr, unw_word_t* value) {
    const uint64_t page = addr & ~(kPageBytes - 1);
    const size_t offset = addr - page;
    if (offset + sizeof *value > kPageBytes) return read_remote(s.pid, addr, value, sizeof *value);  // straddles
    for (size_t i = 0; i < s.live_page_addrs.size(); ++i)
        if (s.live_page_addrs[i] == page) {
            std::memcpy(value, s.live_pages.data() + i * kPageBytes + offset, sizeof *value);
            return true;
        }
    if (s.live_page_addrs.size() >= kLivePagesMax) return read_remote(s.pid, addr, value, sizeof *value);
    const size_t slot = s.live_page_addrs.size();
    if (s.live_pages.size() < (slot + 1) * kPageBytes) s.live_pages.resize((slot + 1) * kPageBytes);
    if (!read_remote(s.pid, page, s.live_pages.data() + slot * kPageBytes, kPageBytes))
        return read_remote(s.pid, addr, value, sizeof *value);  // a page only partly mapped: the word alone
    s.live_page_addrs.push_back(page);
    std::memcpy(value, s.live_pages.data() + slot * kPageBytes + offset, sizeof *value);
    return true;
}

int access_mem(unw_addr_space_t, unw_word_t addr, unw_word_t* value, int write, void*) {
    const SnapshotUnwind* u = t_current;
    if (!u || write) return -UNW_EINVAL;
    StackSnapshot& s = *u->snapshot;
    if (addr >= s.lo && addr - s.lo + sizeof *value <= s.copied) {
        std::memcpy(value, s.bytes.data() + (addr - s.lo), sizeof *value);
        return 0;
    }
    // Stack the copy does not hold: read live only while the thread is still stopped (above).
    if (addr >= s.lo && addr < s.stack_end && !u->thread_stopped) return -UNW_EINVAL;
    if (u->unchanged.covers(addr, sizeof *value)) {
        std::memcpy(value, u->unchanged.bytes + (addr - u->unchanged.lo), sizeof *value);
        return 0;
    }
    if (u->files && u->files->read_unchanged(addr, value, sizeof *value, &u->unchanged)) return 0;
    return read_live(s, addr, value) ? 0 : -UNW_EINVAL;
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
    if (!u) return -UNW_ENOINFO;
    ++u->table_lookups;
    return _UPT_find_proc_info(as, ip, info, need_unwind_info, u->tables ? u->tables->for_ip(ip) : u->upt);
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

bool take_snapshot(pid_t pid, size_t max_bytes, AddressRange* stack, StackSnapshot* out) {
#if defined(__x86_64__)
    user_regs_struct r{};
    if (ptrace(PTRACE_GETREGS, pid, nullptr, &r) != 0) return false;
    const uint64_t by_number[] = {r.rax, r.rdx, r.rcx, r.rbx, r.rsi, r.rdi, r.rbp, r.rsp, r.r8,
                                  r.r9,  r.r10, r.r11, r.r12, r.r13, r.r14, r.r15, r.rip};
    static_assert(sizeof by_number / sizeof by_number[0] == UNW_TDEP_LAST_REG + 1, "x86-64 register numbers");
    out->pid = pid;
    std::memcpy(out->regs, by_number, sizeof by_number);
    out->live_page_addrs.clear();  // the buffer stays allocated
    // Usually the mapping seen last time (the main thread's stack); read again when the stack
    // pointer left it (an alternate signal stack, a stack that grew).
    if (r.rsp < stack->lo || r.rsp >= stack->hi) *stack = read_mapping_containing(pid, r.rsp).value_or(AddressRange{});
    out->stack_end = stack->hi;
    // From the start of the stack pointer's page, which is mapped (the red zone below the stack
    // pointer is never needed to unwind: a leaf function saves no register there).
    out->lo = r.rsp & ~(kPageBytes - 1);
    uint64_t end = out->lo + max_bytes;
    if (stack->hi > out->lo) end = std::min(end, stack->hi);
    // One remote piece per page: the kernel copies pieces in order and stops at the first page it
    // cannot read, so what arrives is always a run of whole pages from the start. At most
    // kPagesPerCall pieces per call (IOV_MAX is 1024).
    constexpr uint64_t kPagesPerCall = 512;
    // Grown, never shrunk: a resize down and up again would clear it during the stop.
    if (out->bytes.size() < end - out->lo) out->bytes.resize(static_cast<size_t>(end - out->lo));
    size_t got = 0;
    iovec remote[kPagesPerCall];
    for (uint64_t at = out->lo; at < end;) {
        const uint64_t stop = std::min(end, at + kPagesPerCall * kPageBytes);
        size_t pieces = 0;
        for (uint64_t page = at; page < stop; page += kPageBytes) remote[pieces++] = {reinterpret_cast<void*>(page), kPageBytes};
        iovec local{out->bytes.data() + (at - out->lo), static_cast<size_t>(stop - at)};
        const ssize_t n = process_vm_readv(pid, &local, 1, remote, pieces, 0);
        if (n > 0) got += static_cast<size_t>(n);
        if (n != static_cast<ssize_t>(stop - at)) break;
        at = stop;
    }
    out->copied = got;
    // Without the words at the stack pointer there is nothing to unwind from: unwind during the stop.
    return out->copied >= r.rsp - out->lo + 2 * sizeof(uint64_t);
#else
    (void)pid, (void)max_bytes, (void)stack, (void)out;
    return false;
#endif
}

unw_accessors_t* snapshot_accessors() { return &g_accessors; }

SnapshotScope::SnapshotScope(const SnapshotUnwind* unwind) : previous_(t_current) { t_current = unwind; }
SnapshotScope::~SnapshotScope() { t_current = previous_; }

}  // namespace jobsentry
