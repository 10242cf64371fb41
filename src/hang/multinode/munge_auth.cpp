#include "hang/multinode/munge_auth.h"

#include <munge.h>

#include <cstdlib>

#include "hang/multinode/wire.h"

namespace jobsentry {

std::string munge_sign(const std::string& payload, std::string* error) {
    char* cred = nullptr;
    munge_err_t e = munge_encode(&cred, nullptr, payload.data(), static_cast<int>(payload.size()));
    if (e != EMUNGE_SUCCESS) {
        *error = std::string("munge_encode: ") + munge_strerror(e);
        std::free(cred);
        return {};
    }
    std::string out(cred);
    std::free(cred);
    return out;
}

std::string munge_check(const std::string& credential, MungeSigner* signer) {
    if (credential.empty() || credential.size() > wire::kMaxMessageBytes / 2) return "no credential";
    void* data = nullptr;
    int len = 0;
    uid_t uid = 0;
    gid_t gid = 0;
    munge_err_t e = munge_decode(credential.c_str(), nullptr, &data, &len, &uid, &gid);
    std::string payload = data && len > 0 ? std::string(static_cast<char*>(data), static_cast<size_t>(len)) : "";
    std::free(data);
    if (e != EMUNGE_SUCCESS) return std::string("munge_decode: ") + munge_strerror(e);
    signer->uid = uid;
    signer->gid = gid;
    signer->payload = std::move(payload);
    return {};
}

}  // namespace jobsentry
