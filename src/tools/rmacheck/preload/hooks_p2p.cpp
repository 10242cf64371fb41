// The hand-written PMPI hooks, part 3: what orders processes — messages
// (receive source and tag from the status, so wildcards are resolved),
// request completion, and the collectives recorded by generated wrappers.
#include "tools/rmacheck/preload/hooks.h"

#include <string>
#include <vector>

#include "tools/rmacheck/preload/state.h"
#include "tools/rmacheck/preload/trace_writer.h"

namespace rmacheck {

using trace::Encoder;
using trace::Rec;
using namespace state;

namespace {

void record_send(const void* site, MPI_Comm comm, int dest, int tag, uint64_t request) {
    if (dest == MPI_PROC_NULL) return;
    Encoder e;
    e.put<uint32_t>(comm_id(comm)), e.put<int32_t>(dest), e.put<int32_t>(tag), e.put<uint64_t>(request);
    e.put<uint64_t>(u64(site));
    writer().add(Rec::send, e);
}

void record_recv(const void* site, MPI_Comm comm, const MPI_Status& st) {
    if (st.MPI_SOURCE == MPI_PROC_NULL || st.MPI_SOURCE < 0) return;
    Encoder e;
    e.put<uint32_t>(comm_id(comm)), e.put<int32_t>(st.MPI_SOURCE), e.put<int32_t>(st.MPI_TAG);
    e.put<uint64_t>(u64(site));
    writer().add(Rec::recv, e);
}


}  // namespace

void record_collective(const void* site, MPI_Comm comm, CollKind kind, int root, MPI_Request* request) noexcept {
    if (!g_active) return;
    Encoder e;
    e.put<uint32_t>(comm_id(comm)), e.put<uint8_t>(static_cast<uint8_t>(kind)), e.put<int32_t>(root);
    e.put<uint64_t>(u64(site)), e.put<uint64_t>(request ? new_request(*request, false, comm_id(comm)) : 0);
    writer().add(Rec::coll, e);
}


// Point-to-point.
int on_MPI_Send(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm) {
    int rc = PMPI_Send(buf, count, datatype, dest, tag, comm);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, 0);
    return rc;
}
int on_MPI_Ssend(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    int rc = PMPI_Ssend(buf, count, datatype, dest, tag, comm);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, 0);
    return rc;
}
int on_MPI_Bsend(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    int rc = PMPI_Bsend(buf, count, datatype, dest, tag, comm);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, 0);
    return rc;
}
int on_MPI_Rsend(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm) {
    int rc = PMPI_Rsend(buf, count, datatype, dest, tag, comm);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, 0);
    return rc;
}
int on_MPI_Recv(const void* site, void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Recv(buf, count, datatype, source, tag, comm, st);
    if (rc == MPI_SUCCESS && g_active) record_recv(site, comm, *st);
    return rc;
}
int on_MPI_Sendrecv(const void* site, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Status* status) {
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                           comm, st);
    if (rc == MPI_SUCCESS && g_active) {
        record_send(site, comm, dest, sendtag, 0);
        record_recv(site, comm, *st);
    }
    return rc;
}
int on_MPI_Isend(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request* request) {
    int rc = PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, new_request(*request, false, comm_id(comm)));
    return rc;
}
int on_MPI_Issend(const void* site, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request* request) {
    int rc = PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
    if (rc == MPI_SUCCESS && g_active) record_send(site, comm, dest, tag, new_request(*request, false, comm_id(comm)));
    return rc;
}
int on_MPI_Irecv(const void*, void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request* request) {
    int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
    if (rc == MPI_SUCCESS && g_active) new_request(*request, true, comm_id(comm));
    return rc;
}

// Request completion: the handles are copied first because MPI resets completed ones to MPI_REQUEST_NULL.
int on_MPI_Wait(const void* site, MPI_Request* request, MPI_Status* status) {
    MPI_Request before = *request;
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Wait(request, st);
    if (rc == MPI_SUCCESS && g_active) request_done(site, before, st);
    return rc;
}
int on_MPI_Test(const void* site, MPI_Request* request, int* flag, MPI_Status* status) {
    MPI_Request before = *request;
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Test(request, flag, st);
    if (rc == MPI_SUCCESS && *flag && g_active) request_done(site, before, st);
    return rc;
}
int on_MPI_Waitall(const void* site, int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
    std::vector<MPI_Request> before(array_of_requests, array_of_requests + count);
    std::vector<MPI_Status> local(static_cast<size_t>(count));
    MPI_Status* st = array_of_statuses == MPI_STATUSES_IGNORE ? local.data() : array_of_statuses;
    int rc = PMPI_Waitall(count, array_of_requests, st);
    if (rc == MPI_SUCCESS && g_active)
        for (int i = 0; i < count; ++i) request_done(site, before[static_cast<size_t>(i)], &st[i]);
    return rc;
}
int on_MPI_Testall(const void* site, int count, MPI_Request array_of_requests[], int* flag,
                   MPI_Status array_of_statuses[]) {
    std::vector<MPI_Request> before(array_of_requests, array_of_requests + count);
    std::vector<MPI_Status> local(static_cast<size_t>(count));
    MPI_Status* st = array_of_statuses == MPI_STATUSES_IGNORE ? local.data() : array_of_statuses;
    int rc = PMPI_Testall(count, array_of_requests, flag, st);
    if (rc == MPI_SUCCESS && *flag && g_active)
        for (int i = 0; i < count; ++i) request_done(site, before[static_cast<size_t>(i)], &st[i]);
    return rc;
}
int on_MPI_Waitany(const void* site, int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
    std::vector<MPI_Request> before(array_of_requests, array_of_requests + count);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Waitany(count, array_of_requests, index, st);
    if (rc == MPI_SUCCESS && g_active && *index != MPI_UNDEFINED)
        request_done(site, before[static_cast<size_t>(*index)], st);
    return rc;
}
int on_MPI_Testany(const void* site, int count, MPI_Request array_of_requests[], int* index, int* flag,
                   MPI_Status* status) {
    std::vector<MPI_Request> before(array_of_requests, array_of_requests + count);
    MPI_Status local;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Testany(count, array_of_requests, index, flag, st);
    if (rc == MPI_SUCCESS && g_active && *flag && *index != MPI_UNDEFINED)
        request_done(site, before[static_cast<size_t>(*index)], st);
    return rc;
}

// Waitsome/Testsome: every completed request listed in array_of_indices is a completion event.
namespace {
using SomeCall = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);
int some_done(const void* site, SomeCall call, int incount, MPI_Request requests[], int* outcount, int indices[],
              MPI_Status statuses[]) {
    std::vector<MPI_Request> before(requests, requests + incount);
    std::vector<MPI_Status> local(static_cast<size_t>(incount));
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? local.data() : statuses;
    int rc = call(incount, requests, outcount, indices, st);
    if (rc != MPI_SUCCESS || !g_active || *outcount == MPI_UNDEFINED) return rc;
    for (int k = 0; k < *outcount; ++k) request_done(site, before[static_cast<size_t>(indices[k])], &st[k]);
    return rc;
}
}  // namespace
int on_MPI_Waitsome(const void* site, int incount, MPI_Request array_of_requests[], int* outcount,
                    int array_of_indices[], MPI_Status array_of_statuses[]) {
    return some_done(site, PMPI_Waitsome, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}
int on_MPI_Testsome(const void* site, int incount, MPI_Request array_of_requests[], int* outcount,
                    int array_of_indices[], MPI_Status array_of_statuses[]) {
    return some_done(site, PMPI_Testsome, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

}  // namespace rmacheck
