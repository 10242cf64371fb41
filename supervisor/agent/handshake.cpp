#include "agent/handshake.h"

#include "agent/munge_auth.h"
#include "agent/wire.h"

namespace jobsentry {
namespace {

std::string send_credential(Connection& c, const char* type, const std::string& payload, double deadline) {
    std::string error;
    std::string credential = munge_sign(payload, &error);
    if (credential.empty()) return error;
    return c.send({{"type", type}, {"credential", credential}}, deadline);
}

// The peer's credential message of the given type, checked.
std::string receive_credential(Connection& c, const char* type, const char* role, uint32_t job_id, uid_t trusted_uid,
                               double deadline, std::string* node) {
    std::string error;
    auto message = c.receive(deadline, &error);
    if (!message) return error;
    if ((*message)["type"] != type || !message->contains("credential") || !(*message)["credential"].is_string())
        return std::string("expected a ") + type + " message";
    MungeSigner signer;
    error = munge_check((*message)["credential"].get<std::string>(), &signer);
    if (!error.empty()) return error;
    return wire::check_hello(signer.uid, signer.payload, trusted_uid, role, job_id, node);
}

}  // namespace

std::string agent_handshake(Connection& leader, uint32_t job_id, const std::string& node, uid_t trusted_uid,
                            double deadline) {
    std::string error = send_credential(leader, "hello", wire::hello_payload("agent", job_id, node), deadline);
    if (!error.empty()) return error;
    std::string leader_node;
    return receive_credential(leader, "welcome", "leader", job_id, trusted_uid, deadline, &leader_node);
}

std::string leader_handshake(Connection& agent, uint32_t job_id, uid_t trusted_uid, double deadline,
                             std::string* node) {
    std::string error = receive_credential(agent, "hello", "agent", job_id, trusted_uid, deadline, node);
    if (!error.empty()) return error;
    if (node->empty()) return "hello names no node";
    return send_credential(agent, "welcome", wire::hello_payload("leader", job_id, ""), deadline);
}

}  // namespace jobsentry
