#include "hang/sampler/mpi_classifier.h"

#include <cctype>
#include <string>

namespace jobsentry {
namespace {

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    return true;
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view basename(std::string_view path) {
    auto slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool is_mpi_function_name(std::string_view name) {
    // C bindings: case-sensitive MPI_Xxx / PMPI_Xxx with at least one letter after the prefix.
    for (std::string_view prefix : {"MPI_", "PMPI_"}) {
        if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix) return true;
    }
    // Fortran bindings: mpi_send_, mpi_send__, MPI_SEND (caught above), pmpi_send_,
    // and the mpi_f08 module's mpi_send_f08 / mpi_send_f08ts.
    for (std::string_view prefix : {"mpi_", "pmpi_"}) {
        if (name.size() > prefix.size() + 1 && starts_with_nocase(name, prefix) &&
            (ends_with(name, "_") || ends_with(name, "_f08") || ends_with(name, "_f08ts")))
            return true;
    }
    return false;
}

bool is_polling_mpi_call(std::string_view name) {
    std::string core;
    for (char c : name) core += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool prefixed = false;
    for (std::string_view prefix : {"pmpi_", "mpi_", "ompi_"}) {
        if (core.compare(0, prefix.size(), prefix) == 0) {
            core.erase(0, prefix.size());
            prefixed = true;
            break;
        }
    }
    if (!prefixed) return false;
    for (std::string_view suffix : {"_f08ts", "_f08", "_f"}) {
        if (core.size() > suffix.size() && core.compare(core.size() - suffix.size(), suffix.size(), suffix) == 0) {
            core.erase(core.size() - suffix.size());
            break;
        }
    }
    while (!core.empty() && core.back() == '_') core.pop_back();
    for (std::string_view polling :
         {"test", "testany", "testall", "testsome", "iprobe", "improbe", "request_get_status", "win_test"})
        if (core == polling) return true;
    return false;
}

bool is_mpi_library_path(std::string_view path) {
    std::string_view base = basename(path);
    for (std::string_view prefix :
         {"libmpi.", "libmpi_", "libmpich", "libopen-pal", "libopen-rte", "libpmix", "mca_"}) {
        if (base.substr(0, prefix.size()) == prefix) return true;
    }
    return false;
}

bool stack_in_mpi(const std::vector<Frame>& frames) {
    for (const Frame& f : frames)
        if (f.mpi) return true;
    return false;
}

const char* to_string(SampleStatus s) {
    switch (s) {
        case SampleStatus::ok: return "ok";
        case SampleStatus::gone: return "gone";
        case SampleStatus::denied: return "denied";
        case SampleStatus::timeout: return "timeout";
        case SampleStatus::busy: return "busy";
        case SampleStatus::error: return "error";
        case SampleStatus::unreachable: return "unreachable";
    }
    return "?";
}

}  // namespace jobsentry
