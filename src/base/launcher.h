// Starts the watched command without a shell and ends its process tree.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace jobsentry {

struct Launch {
    pid_t pid = -1;
    std::string error;  // non-empty when the command could not be started (e.g. not found)
};

// fork + execvp with the given signal mask restored in the child. The exec
// error, if any, comes back through a close-on-exec pipe, so "not found" is
// reported by the parent before anything else happens.
Launch launch_command(const std::vector<std::string>& argv);

// SIGTERM (and SIGCONT, so that stopped processes can act on it) to every
// descendant of root owned by uid, then SIGKILL to whatever is left after
// grace. root is the supervisor itself, made a child subreaper so that
// orphaned ranks stay below it; reap() is called while waiting so that the
// caller collects exit statuses. Returns the number of processes signalled.
size_t terminate_tree(pid_t root, uid_t uid, int grace_ms, const std::function<void()>& reap);

// Exit status in the shell's convention: the code, or 128 + signal.
int shell_status(int wait_status);

}  // namespace jobsentry
