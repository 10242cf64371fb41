#include "tools/rmacheck/analysis/name.h"

#include <mutex>
#include <set>

namespace rmacheck {
namespace {

// Never destroyed: names may be used from other static objects' destructors.
struct Pool {
    std::mutex mutex;
    std::set<std::string, std::less<>> names{std::string()};
};
Pool& pool() {
    static Pool* p = new Pool;
    return *p;
}

}  // namespace

const std::string* Name::empty_text() {
    static const std::string* empty = &*pool().names.begin();
    return empty;
}

Name::Name(std::string_view text) {
    Pool& p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.names.find(text);
    if (it == p.names.end()) it = p.names.emplace(text).first;
    text_ = &*it;
}

}  // namespace rmacheck
