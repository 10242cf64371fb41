#include "base/port_range.h"

#include <algorithm>

#include "base/text.h"

namespace jobsentry {

std::optional<PortRange> parse_port_range(const std::string& text) {
    const size_t dash = text.find('-');
    int first = 0, last = 0;
    if (dash == std::string::npos || !parse_int(text.substr(0, dash), 1024, 65535, &first) ||
        !parse_int(text.substr(dash + 1), 1024, 65535, &last) || last < first)
        return std::nullopt;
    return PortRange{first, last - first + 1};
}

std::string to_string(const PortRange& ports) {
    return std::to_string(ports.first) + "-" + std::to_string(ports.first + ports.count - 1);
}

std::vector<int> leader_port_sequence(const PortRange& ports, uint32_t job_id) {
    std::vector<int> out;
    const int tries = std::min(ports.count, kLeaderPortTries);
    for (int i = 0; i < tries; ++i)
        out.push_back(ports.first + static_cast<int>((job_id % static_cast<uint32_t>(ports.count) + i) % ports.count));
    return out;
}

}  // namespace jobsentry
