// Files installed beside the jobsentry binary (preload modules, helper
// programs), found from /proc/self/exe so that an installed tree, a build
// tree and a copied tree all work without configuration.
#pragma once

#include <initializer_list>
#include <string>

namespace jobsentry {

// The first DIR/NAME that exists, DIR taken relative to the directory of
// this executable ("" is that directory itself); "" when there is none.
std::string find_beside_self(const std::string& name, std::initializer_list<const char*> dirs);

}  // namespace jobsentry
