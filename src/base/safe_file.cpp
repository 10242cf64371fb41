#include "base/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace jobsentry {

std::string create_temp_beside(const std::string& path, TempFile* temp) {
    temp->name = path + ".XXXXXX";
    temp->fd = mkostemp(temp->name.data(), O_CLOEXEC);  // O_CREAT|O_EXCL: a fresh file, never a symlink's target
    if (temp->fd < 0) return "cannot write " + path + ": cannot create " + temp->name + ": " + std::strerror(errno);
    fchmod(temp->fd, 0644);
    return {};
}

void discard_temp(TempFile& temp) {
    if (temp.fd >= 0) close(temp.fd);
    temp.fd = -1;
    unlink(temp.name.c_str());
}

std::string commit_temp(TempFile& temp, const std::string& path) {
    const int fd = temp.fd;
    temp.fd = -1;
    if (close(fd) != 0 || rename(temp.name.c_str(), path.c_str()) != 0) {
        std::string err = "cannot write " + path + ": " + std::strerror(errno);
        discard_temp(temp);
        return err;
    }
    return {};
}

std::string write_file_safely(const std::string& path, const std::string& content) {
    TempFile temp;
    std::string err = create_temp_beside(path, &temp);
    if (!err.empty()) return err;
    size_t done = 0;
    while (done < content.size()) {
        ssize_t n = write(temp.fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = "cannot write " + path + " (through " + temp.name + "): " + std::strerror(n < 0 ? errno : EIO);
            discard_temp(temp);
            return err;
        }
        done += static_cast<size_t>(n);
    }
    return commit_temp(temp, path);
}

}  // namespace jobsentry
