// Notes on ranks with several threads (see threads.h).
#include "tools/rmacheck/analysis/threads.h"

namespace rmacheck {

namespace {
std::string count(size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}
}  // namespace

bool ompt_ordered(const RankTrace& t) {
    if (t.omp_threads.empty()) return false;
    for (const auto& [tid, use] : t.threads)
        if (!t.omp_threads.count(tid)) return false;
    return true;
}

std::vector<std::string> thread_notes(const std::vector<RankTrace>& traces) {
    std::vector<std::string> out;
    for (const auto& t : traces) {
        size_t calling = 0, accessing = 0;
        for (const auto& [tid, use] : t.threads) {
            calling += use.mpi_calls > 0;
            accessing += use.accesses > 0;
        }
        if (t.threads.size() < 2) continue;
        std::string text = "rank " + std::to_string(t.rank) + ": MPI calls from " + count(calling, "thread");
        if (accessing > 0) text += ", loads/stores of window memory or RMA buffers from " + count(accessing, "thread");
        if (ompt_ordered(t))
            text += "; their order among threads was taken from OpenMP synchronisation (OMPT): parallel regions, "
                    "barriers (explicit, and the implicit ones of parallel, for, sections and single), critical, "
                    "ordered, OpenMP locks, and tasks (creation, depend clauses, completion at taskwait and "
                    "barriers); not from taskgroup, mutexinoutset or synchronisation outside OpenMP";
        else {
            size_t outside = 0;
            for (const auto& [tid, use] : t.threads) outside += !t.omp_threads.count(tid);
            text += "; their order among threads was not checked: ";
            text += t.omp_threads.empty()
                        ? std::string("no OpenMP/OMPT information")
                        : count(outside, "thread") + " took no part in OpenMP synchronisation (e.g. raw pthreads)";
            text += " (events of different threads were taken in the order they were recorded, so a race between "
                    "two threads of this rank may be missed)";
        }
        out.push_back(text);
    }
    return out;
}

}  // namespace rmacheck
