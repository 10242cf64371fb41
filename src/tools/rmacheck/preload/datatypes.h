// Exact flattening of MPI datatypes into byte blocks, by walking the type's
// constructor tree with MPI_Type_get_envelope / MPI_Type_get_contents (not by
// bounding extent). Results are cached per handle until MPI_Type_free.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "tools/rmacheck/blocks.h"
#include "tools/rmacheck/trace_format.h"

namespace rmacheck {

struct FlatType {
    std::vector<Block> blocks;  // one element, offsets from the buffer address
    int64_t extent = 0;
    std::string basic;          // name of the predefined type at the leaves, e.g. MPI_INT; "" when they differ
    uint32_t elem = 0;          // size in bytes of that predefined type (0 when they differ)
    bool exact = true;          // false: a constructor we cannot walk; blocks are the true extent
};

const FlatType& flatten(MPI_Datatype type);
void forget_type(MPI_Datatype type);

// Byte ranges of `count` elements of `type` at address/offset `base`.
std::vector<trace::Range> type_ranges(MPI_Datatype type, int count, int64_t base);
std::vector<trace::Range> type_ranges(const FlatType& flat, int count, int64_t base);  // flat: flatten(type)

}  // namespace rmacheck
