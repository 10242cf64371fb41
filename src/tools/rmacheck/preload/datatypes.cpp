// Exact datatype flattening (see datatypes.h). Only PMPI_ calls are used here:
// the wrappers are not re-entered.
#include "tools/rmacheck/preload/datatypes.h"

#include <map>
#include <mutex>

namespace rmacheck {

namespace {
constexpr size_t kMaxBlocks = 1 << 16;  // beyond this a type is summarised by its bounds

std::mutex g_mutex;
std::map<MPI_Datatype, FlatType>& cache() {
    static auto* c = new std::map<MPI_Datatype, FlatType>;
    return *c;
}

int64_t extent_of(MPI_Datatype t) {
    MPI_Aint lb, extent;
    PMPI_Type_get_extent(t, &lb, &extent);
    return extent;
}

FlatType compute(MPI_Datatype t);

// The blocks of `n` elements of child starting at displacement d.
void add_child(std::vector<Block>& out, const FlatType& child, int64_t d, int64_t n, bool* exact) {
    for (const auto& b : repeat_blocks(child.blocks, n, child.extent, kMaxBlocks, exact))
        out.push_back({b.off + d, b.len});
}

FlatType compute(MPI_Datatype t) {
    FlatType f;
    f.extent = extent_of(t);
    int ni = 0, na = 0, nd = 0, combiner = 0;
    PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED) {
        int size = 0;
        PMPI_Type_size(t, &size);
        f.blocks = {{0, size}};
        char name[MPI_MAX_OBJECT_NAME] = {0};
        int len = 0;
        PMPI_Type_get_name(t, name, &len);
        f.basic = std::string(name, static_cast<size_t>(len));
        f.elem = static_cast<uint32_t>(size);
        return f;
    }
    std::vector<int> ints(static_cast<size_t>(ni));
    std::vector<MPI_Aint> aints(static_cast<size_t>(na));
    std::vector<MPI_Datatype> types(static_cast<size_t>(nd));
    PMPI_Type_get_contents(t, ni, na, nd, ints.data(), aints.data(), types.data());
    std::vector<FlatType> kids;
    for (auto k : types) kids.push_back(compute(k));
    // One basic type at every leaf, or none: accumulate atomicity is per element of one basic type.
    if (!kids.empty()) f.basic = kids[0].basic, f.elem = kids[0].elem;
    for (const auto& k : kids)
        if (k.basic != f.basic || k.elem != f.elem) f.basic.clear(), f.elem = 0;
    std::vector<Block> out;
    bool ok = true;
    auto ext = [&](size_t i) { return kids[i].extent; };
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:  // lb/extent change only how elements repeat
        add_child(out, kids[0], 0, 1, &ok);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        add_child(out, kids[0], 0, ints[0], &ok);
        break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
        int64_t stride = combiner == MPI_COMBINER_VECTOR ? ints[2] * ext(0) : aints[0];
        for (int i = 0; i < ints[0] && ok; ++i) add_child(out, kids[0], i * stride, ints[1], &ok);
        break;
    }
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < ints[0] && ok; ++i) {
            int64_t d = combiner == MPI_COMBINER_INDEXED ? ints[1 + ints[0] + i] * ext(0) : aints[i];
            add_child(out, kids[0], d, ints[1 + i], &ok);
        }
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < ints[0] && ok; ++i) {
            int64_t d = combiner == MPI_COMBINER_INDEXED_BLOCK ? ints[2 + i] * ext(0) : aints[i];
            add_child(out, kids[0], d, ints[1], &ok);
        }
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ints[0] && ok; ++i) add_child(out, kids[i], aints[i], ints[1 + i], &ok);
        break;
    default:  // subarray, darray, Fortran types: bounded by the true extent
        ok = false;
        break;
    }
    for (auto k : types) {
        int a, b, c, comb;
        PMPI_Type_get_envelope(k, &a, &b, &c, &comb);
        if (comb != MPI_COMBINER_NAMED) PMPI_Type_free(&k);
    }
    if (ok && out.size() <= kMaxBlocks) {
        f.blocks = merge_blocks(std::move(out));
    } else {
        MPI_Aint true_lb, true_extent;
        PMPI_Type_get_true_extent(t, &true_lb, &true_extent);
        f.blocks = {{true_lb, true_extent}};
        f.exact = false;
    }
    return f;
}
}  // namespace

const FlatType& flatten(MPI_Datatype type) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = cache().find(type);
    if (it == cache().end()) it = cache().emplace(type, compute(type)).first;
    return it->second;
}

void forget_type(MPI_Datatype type) {
    std::lock_guard<std::mutex> lock(g_mutex);
    cache().erase(type);
}

std::vector<trace::Range> type_ranges(MPI_Datatype type, int count, int64_t base) {
    return type_ranges(flatten(type), count, base);
}

std::vector<trace::Range> type_ranges(const FlatType& f, int count, int64_t base) {
    // Contiguous elements (a predefined type, most operations): one range, without repeat_blocks.
    if (count > 0 && f.extent > 0 && f.blocks.size() == 1 && f.blocks[0].off == 0 && f.blocks[0].len == f.extent)
        return {{static_cast<uint64_t>(base), static_cast<uint64_t>(base + f.extent * count)}};
    bool exact = true;
    std::vector<trace::Range> out;
    for (const auto& b : repeat_blocks(f.blocks, count, f.extent, kMaxBlocks, &exact))
        out.push_back({static_cast<uint64_t>(base + b.off), static_cast<uint64_t>(base + b.off + b.len)});
    return out;
}

}  // namespace rmacheck
