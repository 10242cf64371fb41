// Which OpenMP runtime the program runs, for the report: the preload module
// registers as an OpenMP tool (OMPT's ompt_start_tool, which LLVM's libomp looks
// up in the process when it initialises), so a runtime offering OMPT is seen;
// GNU libgomp has no OMPT and is recognised by its library being loaded.
#pragma once

#include <string>

namespace rmacheck::openmp {

// A note on the OpenMP runtime and what it means for ordering threads; "" when no
// OpenMP runtime is in the process.
std::string runtime_note();
// Whether the runtime's OMPT events are being recorded (the callbacks were all accepted).
bool recording();

}  // namespace rmacheck::openmp
