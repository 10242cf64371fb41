#include "hang/multinode/handshake.h"

#include "hang/multinode/munge_auth.h"
#include "hang/multinode/wire.h"

namespace jobsentry {
namespace {

std::string send_credential(Connection& c, const char* type, const std::string& payload, double deadline) {
    std::string error;
    std::string credential = munge_sign(payload, &error);
    if (credential.empty()) return error;
    return c.send({{"type", type}, {"credential", credential}}, deadline);
}

// Checks the peer's credential message of the given type.
std::string check_credential(const nlohmann::json& message, const char* type, const char* role, uint32_t job_id,
                             uid_t trusted_uid, std::string* node) {
    const auto credential = message.find("credential");
    if (message["type"] != type || credential == message.end() || !credential->is_string())
        return std::string("expected a ") + type + " message";
    MungeSigner signer;
    std::string error = munge_check(credential->get<std::string>(), &signer);
    if (!error.empty()) return error;
    return wire::check_hello(signer.uid, signer.payload, trusted_uid, role, job_id, node);
}

}  // namespace

std::string agent_handshake(Connection& leader, uint32_t job_id, const std::string& node, uid_t trusted_uid,
                            double deadline) {
    std::string error = send_credential(leader, "hello", wire::hello_payload("agent", job_id, node), deadline);
    if (!error.empty()) return error;
    leader.limit_messages(wire::kMaxHelloBytes);
    auto welcome = leader.receive(deadline, &error);
    leader.limit_messages(wire::kMaxMessageBytes);
    if (!welcome) return error;
    std::string leader_node;
    return check_credential(*welcome, "welcome", "leader", job_id, trusted_uid, &leader_node);
}

std::string leader_answer_hello(Connection& agent, const nlohmann::json& hello, uint32_t job_id, uid_t trusted_uid,
                                double deadline, std::string* node) {
    std::string error = check_credential(hello, "hello", "agent", job_id, trusted_uid, node);
    if (!error.empty()) return error;
    if (node->empty()) return "hello names no node";
    return send_credential(agent, "welcome", wire::hello_payload("leader", job_id, ""), deadline);
}

}  // namespace jobsentry
