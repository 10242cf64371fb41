// Pure block arithmetic for datatype flattening (see blocks.h).
#include "tools/rmacheck/blocks.h"

#include <algorithm>

namespace rmacheck {

std::vector<Block> merge_blocks(std::vector<Block> blocks) {
    blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [](const Block& b) { return b.len <= 0; }),
                 blocks.end());
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.off < b.off; });
    std::vector<Block> out;
    for (const auto& b : blocks) {
        if (!out.empty() && b.off <= out.back().off + out.back().len)
            out.back().len = std::max(out.back().len, b.off + b.len - out.back().off);
        else
            out.push_back(b);
    }
    return out;
}

std::vector<Block> repeat_blocks(const std::vector<Block>& one, int64_t count, int64_t extent, size_t max_blocks,
                                 bool* exact) {
    std::vector<Block> base = merge_blocks(one);
    if (count <= 0 || base.empty()) return {};
    // A dense element (one block filling its extent) repeats into one block.
    if (base.size() == 1 && base[0].len == extent && extent > 0)
        return {{base[0].off, base[0].len * count}};
    if (static_cast<uint64_t>(count) * base.size() > max_blocks) {
        int64_t lo = base.front().off, hi = base.back().off + base.back().len;
        int64_t first = std::min(lo, lo + (count - 1) * extent);
        int64_t last = std::max(hi, hi + (count - 1) * extent);
        if (exact) *exact = false;
        return {{first, last - first}};
    }
    std::vector<Block> all;
    all.reserve(static_cast<size_t>(count) * base.size());
    for (int64_t i = 0; i < count; ++i)
        for (const auto& b : base) all.push_back({b.off + i * extent, b.len});
    return merge_blocks(std::move(all));
}

}  // namespace rmacheck
