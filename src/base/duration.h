// Durations with a unit, as users write them everywhere jobsentry takes one
// (plugstack.conf, --hang-detect, --noise-probe, --checkpoint, the CLI):
// 400ms, 1s, 1.5s, 2m, 24h, 7d. Pure; shared by every layer.
#pragma once

#include <string>

namespace jobsentry {

// Seconds, or -1 when malformed (no unit, a sign, an exponent, spaces).
double parse_duration_seconds(const std::string& text);
// The same in whole milliseconds, -1 beyond 1e9 ms.
long parse_duration_ms(const std::string& text);
// 400ms, 2s: how durations are shown back to users.
std::string format_ms(int ms);

}  // namespace jobsentry
