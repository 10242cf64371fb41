// Files the supervisor creates, often as root in directories users can
// write: a new temporary file beside the target (O_CREAT|O_EXCL, never a
// planted symlink's target) renamed over it, so no half file is ever seen.
#pragma once

#include <string>

namespace jobsentry {

// Writes content to path through a new temporary file in the same directory
// and rename(): never follows a symlink planted at path, never leaves a half
// file. Returns an error text, empty on success.
std::string write_file_safely(const std::string& path, const std::string& content);

// Its two halves, for content written by someone else (a child's stdout):
// create_temp_beside makes a new file "path.XXXXXX" (mkostemp: O_CREAT|O_EXCL,
// never a symlink's target), mode 0644; commit_temp closes it and renames it
// over path; discard_temp closes and removes it. Error texts, empty on success.
struct TempFile {
    int fd = -1;
    std::string name;
};
std::string create_temp_beside(const std::string& path, TempFile* temp);
std::string commit_temp(TempFile& temp, const std::string& path);
void discard_temp(TempFile& temp);

}  // namespace jobsentry
