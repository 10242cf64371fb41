// Munge credentials for the leader–agent handshake. munged, which Slurm
// already runs on every node with one shared key, signs a payload with the
// uid of the calling process; decoding checks the key, the time to live and
// that the credential was not seen before (replay). So a hello that decodes
// to uid 0 was made by a root process of this cluster, just now.
#pragma once

#include <sys/types.h>

#include <string>

namespace jobsentry {

// A credential of the calling process carrying payload, or "" with *error.
std::string munge_sign(const std::string& payload, std::string* error);

struct MungeSigner {
    uid_t uid = static_cast<uid_t>(-1);
    gid_t gid = static_cast<gid_t>(-1);
    std::string payload;
};

// Decodes and checks a credential; "" on success, else why it is refused.
std::string munge_check(const std::string& credential, MungeSigner* signer);

}  // namespace jobsentry
