// Doing file work as the job's user. The supervisor runs as root on other
// users' nodes; files it writes for a user (reports, lines in the job's
// output) are written by a child process that has dropped to that user
// (supplementary groups, gid, uid), so the user's own permissions apply, no
// root-only place can be reached through a planted symlink, and every file
// created is owned by the user.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace jobsentry {

struct UserIdentity {
    uid_t uid = 0;
    gid_t gid = 0;
    std::string name;  // for the supplementary groups; may be empty
};

// Runs work() in such a child and returns its result text ("" for success),
// or why the child could not run or did not finish within timeout_ms (it is
// then killed). Refuses uid 0: a job of root gets no help from us.
std::string run_as_user(const UserIdentity& user, const std::function<std::string()>& work, int timeout_ms = 10000);

// Appends text to an existing file without following a symlink (as whoever calls it).
std::string append_to_existing_file(const std::string& path, const std::string& text);

}  // namespace jobsentry
