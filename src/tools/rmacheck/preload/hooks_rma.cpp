// The hand-written PMPI hooks, part 2: RMA operations. Each records its
// origin buffer (read by MPI), result buffer (written by MPI) and the exact
// target bytes, and starts tracking the buffers until the epoch completes.
#include "tools/rmacheck/preload/hooks.h"

#include <string>
#include <vector>

#include "tools/rmacheck/preload/state.h"
#include "tools/rmacheck/preload/trace_writer.h"
#include "tools/rmacheck/preload/datatypes.h"
#include "tools/rmacheck/preload/protect.h"

namespace rmacheck {

using trace::Encoder;
using trace::Range;
using trace::Rec;
using trace::RmaKind;
using namespace state;

namespace {

std::string op_name(MPI_Op op) {
    static const std::pair<MPI_Op, const char*> names[] = {
        {MPI_SUM, "MPI_SUM"},   {MPI_PROD, "MPI_PROD"}, {MPI_MAX, "MPI_MAX"},       {MPI_MIN, "MPI_MIN"},
        {MPI_BAND, "MPI_BAND"}, {MPI_BOR, "MPI_BOR"},   {MPI_BXOR, "MPI_BXOR"},     {MPI_LAND, "MPI_LAND"},
        {MPI_LOR, "MPI_LOR"},   {MPI_LXOR, "MPI_LXOR"}, {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"},
        {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"}};
    for (const auto& n : names)
        if (n.first == op) return n.second;
    return "user-op";
}

struct Buffer {
    const void* addr;
    int count;
    MPI_Datatype type;
};

// One RMA operation: origin buffer (read), result buffer (written; the origin of a Get is a result),
// target bytes relative to target_disp * disp_unit of the target.
void record_rma(const void* site, RmaKind kind, MPI_Win win, int target, MPI_Aint disp, Buffer origin,
                Buffer result, int target_count, MPI_Datatype target_type, const std::string& op, uint64_t request) {
    const WinInfo* w = win_info(win);
    if (!w || target == MPI_PROC_NULL) return;
    std::vector<Range> o, r;
    if (origin.addr && origin.count > 0) o = type_ranges(origin.type, origin.count, static_cast<int64_t>(u64(origin.addr)));
    if (result.addr && result.count > 0) r = type_ranges(result.type, result.count, static_cast<int64_t>(u64(result.addr)));
    const FlatType& tt = flatten(target_type);
    std::vector<Range> t = type_ranges(tt, target_count, 0);
    Encoder e;
    e.put<uint8_t>(static_cast<uint8_t>(kind)), e.put<uint32_t>(w->id), e.put<int32_t>(target);
    e.put<int64_t>(disp), e.put<uint64_t>(u64(site)), e.put<uint64_t>(request);
    e.put_str(op), e.put_str(tt.basic), e.put<uint32_t>(tt.elem);
    e.put_ranges(o), e.put_ranges(r), e.put_ranges(t);
    writer().add(Rec::rma, e);
    if (mode() != trace::mode_calls_only && watch_buffers(site)) {
        // A Get's result may be neither read nor written; a Put's origin may only be read.
        for (const auto& x : r) protect::track(x.lo, x.hi, true, w->id, target, request);
        for (const auto& x : o) protect::track(x.lo, x.hi, false, w->id, target, request);
    }
}


}  // namespace

// RMA communication.
int on_MPI_Put(const void* site, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
    int rc = PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, win);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::put, win, target_rank, target_disp, {origin_addr, origin_count, origin_datatype},
                   {nullptr, 0, MPI_DATATYPE_NULL}, target_count, target_datatype, "", 0);
    return rc;
}
int on_MPI_Get(const void* site, void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
    int rc = PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                      target_datatype, win);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::get, win, target_rank, target_disp, {nullptr, 0, MPI_DATATYPE_NULL},
                   {origin_addr, origin_count, origin_datatype}, target_count, target_datatype, "", 0);
    return rc;
}
int on_MPI_Accumulate(const void* site, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                      int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                      MPI_Op op, MPI_Win win) {
    int rc = PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                             target_datatype, op, win);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::acc, win, target_rank, target_disp, {origin_addr, origin_count, origin_datatype},
                   {nullptr, 0, MPI_DATATYPE_NULL}, target_count, target_datatype, op_name(op), 0);
    return rc;
}
int on_MPI_Get_accumulate(const void* site, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                          void* result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win) {
    int rc = PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                                 result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::get_acc, win, target_rank, target_disp,
                   {op == MPI_NO_OP ? nullptr : origin_addr, origin_count, origin_datatype},
                   {result_addr, result_count, result_datatype}, target_count, target_datatype, op_name(op), 0);
    return rc;
}
int on_MPI_Fetch_and_op(const void* site, const void* origin_addr, void* result_addr, MPI_Datatype datatype,
                        int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
    int rc = PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::fetch_op, win, target_rank, target_disp,
                   {op == MPI_NO_OP ? nullptr : origin_addr, 1, datatype}, {result_addr, 1, datatype}, 1, datatype,
                   op_name(op), 0);
    return rc;
}
int on_MPI_Compare_and_swap(const void* site, const void* origin_addr, const void* compare_addr, void* result_addr,
                            MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
    int rc = PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
    if (rc == MPI_SUCCESS && g_active) {
        record_rma(site, RmaKind::cas, win, target_rank, target_disp, {origin_addr, 1, datatype},
                   {result_addr, 1, datatype}, 1, datatype, "MPI_CAS", 0);
        (void)compare_addr;  // read like the origin; kept out of the record to keep it small
    }
    return rc;
}
int on_MPI_Rput(const void* site, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request* request) {
    int rc = PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, request);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::put, win, target_rank, target_disp, {origin_addr, origin_count, origin_datatype},
                   {nullptr, 0, MPI_DATATYPE_NULL}, target_count, target_datatype, "", new_request(*request, false, 0));
    return rc;
}
int on_MPI_Rget(const void* site, void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request* request) {
    int rc = PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, request);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::get, win, target_rank, target_disp, {nullptr, 0, MPI_DATATYPE_NULL},
                   {origin_addr, origin_count, origin_datatype}, target_count, target_datatype, "",
                   new_request(*request, false, 0));
    return rc;
}
int on_MPI_Raccumulate(const void* site, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                       MPI_Op op, MPI_Win win, MPI_Request* request) {
    int rc = PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                              target_datatype, op, win, request);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::acc, win, target_rank, target_disp, {origin_addr, origin_count, origin_datatype},
                   {nullptr, 0, MPI_DATATYPE_NULL}, target_count, target_datatype, op_name(op),
                   new_request(*request, false, 0));
    return rc;
}

int on_MPI_Rget_accumulate(const void* site, const void* origin_addr, int origin_count,
                           MPI_Datatype origin_datatype, void* result_addr, int result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count,
                           MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request) {
    int rc = PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                                  result_datatype, target_rank, target_disp, target_count, target_datatype, op, win,
                                  request);
    if (rc == MPI_SUCCESS && g_active)
        record_rma(site, RmaKind::get_acc, win, target_rank, target_disp,
                   {op == MPI_NO_OP ? nullptr : origin_addr, origin_count, origin_datatype},
                   {result_addr, result_count, result_datatype}, target_count, target_datatype, op_name(op),
                   new_request(*request, false, 0));
    return rc;
}

}  // namespace rmacheck
