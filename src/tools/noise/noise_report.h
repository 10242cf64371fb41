// The probe's results as the user sees them: JSON (one object per PU), a
// human table, and per-PU trace lines `start_ns<TAB>duration_ns` (the format
// the LogGOPS noise simulator reads). Pure formatting, unit-tested.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "tools/noise/probe_result.h"

namespace jobsentry {

nlohmann::json noise_json(const ProbeResult& result);
// The measured PU with the highest noise overhead; nullptr when none was measured.
const PuResult* noisiest_pu(const ProbeResult& result);
std::string noise_table(const ProbeResult& result);
void write_noise_trace(std::ostream& out, const PuResult& pu);
// File name of a PU's trace inside --trace-dir.
std::string noise_trace_name(int cpu);

}  // namespace jobsentry
