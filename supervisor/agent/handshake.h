// The first exchange on a leader–agent connection: each side sends a munge
// credential of hello_payload() and checks the other's: signed by root (the
// uid both run as, started by slurmstepd), for this job, in the right role.
// Another user's process can connect, but never gets past this.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "agent/connection.h"

namespace jobsentry {

// Agent side: hello, then the leader's welcome. "" when the leader is the job's.
std::string agent_handshake(Connection& leader, uint32_t job_id, const std::string& node, uid_t trusted_uid,
                            double deadline);

// Leader side: the agent's hello, then our welcome. *node: the agent's node.
std::string leader_handshake(Connection& agent, uint32_t job_id, uid_t trusted_uid, double deadline,
                             std::string* node);

}  // namespace jobsentry
