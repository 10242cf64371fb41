// TCP port ranges (FIRST-LAST) and the order in which a multi-node job's
// leader and agents try them. Pure; here because both the plugin's policy
// (plugstack.conf leader_ports=) and the hang detector's hub need it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobsentry {

// TCP ports on which the leader of a multi-node job listens for its node
// agents (docs/multi-node.md): plugstack.conf leader_ports=FIRST-LAST.
struct PortRange {
    int first = 7100;
    int count = 100;
};
// "7100-7199"; nullopt when malformed or outside 1024..65535.
std::optional<PortRange> parse_port_range(const std::string& text);
std::string to_string(const PortRange& ports);
// The ports a job's leader tries to bind and its agents try to reach, in
// order: from first + job_id % count on, wrapping, at most kLeaderPortTries.
constexpr int kLeaderPortTries = 16;
std::vector<int> leader_port_sequence(const PortRange& ports, uint32_t job_id);

}  // namespace jobsentry
