// The reentry guard every generated PMPI wrapper enters (gen_wrappers.py), shared
// by the preload modules of rma-check and trace. A thread-local depth says
// "inside a wrapper": only the outermost call of an active module is handled,
// nested MPI calls (MPI's own use of its API, a hook's PMPI calls) go straight
// to PMPI. A module says where its depth lives, when it is on, and what to do on
// the outermost entry and exit (the RMA checker lifts and restores page
// protections there; the tracer does nothing). The entry is told the call's
// buffer arguments and window, if any: the memory MPI may touch, and how.
#pragma once

#include <mpi.h>

#include <initializer_list>

namespace mpiwrap {

// Module: static int& depth() noexcept;  static bool on() noexcept;
//         static void enter(std::initializer_list<const void*> buffers, MPI_Win win) noexcept;
//         static void leave() noexcept;  (outermost entry, exit)
template <class Module>
class Reentry {
public:
    Reentry() noexcept : Reentry({}, MPI_WIN_NULL) {}
    // (No default for win: a constructor whose other parameters all have defaults would take
    // `guard{{buf}, win}` as one list of buffers.)
    Reentry(std::initializer_list<const void*> buffers, MPI_Win win) noexcept {
        if (++Module::depth() == 1) Module::enter(buffers, win);
    }
    ~Reentry() {
        if (Module::depth() == 1) Module::leave();
        --Module::depth();
    }
    Reentry(const Reentry&) = delete;
    Reentry& operator=(const Reentry&) = delete;
    bool outermost() const noexcept { return Module::depth() == 1 && Module::on(); }
};

}  // namespace mpiwrap
