// The RMA checker's trace reader (rmacheck/analysis/trace_reader.h), on the
// bytes of one rank-N.jsrma file as read_trace_dir hands them over: a damaged
// file must end in t.error, never in a crash or an allocation the size of a
// length field.
#include "fuzz_common.h"
#include "tools/rmacheck/analysis/trace_reader.h"

FUZZ_TEXT_TARGET(bytes) {
    const rmacheck::RankTrace t = rmacheck::parse_trace("rank-0.jsrma", bytes);
    // Nothing is made out of thin air: every event needs bytes of its own.
    FUZZ_CHECK(t.events.size() <= bytes.size());
}
