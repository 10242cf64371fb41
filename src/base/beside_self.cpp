#include "base/beside_self.h"

#include <filesystem>

namespace jobsentry {

std::string find_beside_self(const std::string& name, std::initializer_list<const char*> dirs) {
    std::error_code ec;
    const auto self_dir = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    if (ec) return "";
    for (const char* dir : dirs) {
        auto p = std::filesystem::weakly_canonical(self_dir / dir / name, ec);
        if (!ec && std::filesystem::exists(p)) return p.string();
    }
    return "";
}

}  // namespace jobsentry
