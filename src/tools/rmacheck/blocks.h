// Byte blocks of a flattened MPI datatype: the pure arithmetic behind exact
// flattening (repeat a type's blocks count times at its extent, merge touching
// blocks, bound the list). Used by the preload module; unit-tested alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rmacheck {

struct Block {
    int64_t off = 0, len = 0;  // bytes [off, off + len) from the buffer address
    bool operator==(const Block& o) const { return off == o.off && len == o.len; }
};

// Sorts, drops empty blocks, and merges overlapping or touching ones.
std::vector<Block> merge_blocks(std::vector<Block> blocks);

// The blocks of `count` consecutive elements whose element blocks are `one`
// and whose extent is `extent`. Merged. When the result would exceed
// `max_blocks`, returns the bounding block instead and sets *exact = false.
std::vector<Block> repeat_blocks(const std::vector<Block>& one, int64_t count, int64_t extent, size_t max_blocks,
                                 bool* exact);

}  // namespace rmacheck
