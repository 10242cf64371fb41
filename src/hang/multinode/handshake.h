// The first exchange on a leader–agent connection: each side sends a munge
// credential of hello_payload() and checks the other's: signed by root (the
// uid both run as, started by slurmstepd), for this job, in the right role.
// Another user's process can connect, but never gets past this.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "hang/multinode/connection.h"

namespace jobsentry {

// Agent side: hello, then the leader's welcome. "" when the leader is the job's.
std::string agent_handshake(Connection& leader, uint32_t job_id, const std::string& node, uid_t trusted_uid,
                            double deadline);

// Leader side, once an agent's first message has arrived (the leader never
// waits for it: agent_hub.cpp): checks that it is the job's agent's hello and
// sends our welcome. "" on success; *node: the agent's node.
std::string leader_answer_hello(Connection& agent, const nlohmann::json& hello, uint32_t job_id, uid_t trusted_uid,
                                double deadline, std::string* node);

}  // namespace jobsentry
