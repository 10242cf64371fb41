#include "hang/sampler/stack_root.h"

#include <string_view>

namespace jobsentry {

namespace {
// How far from the outermost frame the entry may sit: _start and
// __libc_start_call_main may be unnamed (stripped) outside __libc_start_main.
constexpr size_t kRootDepth = 3;
}  // namespace

bool reaches_thread_root(const std::vector<Frame>& frames) {
    for (size_t i = 0; i < frames.size() && i < kRootDepth; ++i) {
        const std::string_view name = frames[frames.size() - 1 - i].function;
        for (std::string_view root : {"_start", "__libc_start_main", "__libc_start_call_main", "libc_start_main_stage2",
                                      "start_thread", "clone", "clone3", "__clone", "__clone3", "__clone_internal"})
            if (name == root) return true;
    }
    return false;
}

}  // namespace jobsentry
