// Calls whose record needs the status even when the program ignores it: a
// receive from MPI_ANY_SOURCE or with MPI_ANY_TAG is recorded as matched, and
// each request a Wait/Test call completes gets a `complete` record naming the
// message. The requests are read before the call (MPI sets the completed ones
// to MPI_REQUEST_NULL). Test calls that complete nothing write nothing.
#include <vector>

#include "tools/tracer/preload/guard.h"
#include "tools/tracer/preload/handles.h"
#include "tools/tracer/preload/record_buffer.h"
#include "wrappers_gen.h"

namespace jobtrace {

namespace {

std::uint64_t received_bytes(const MPI_Status& status) noexcept {
    int count = 0;
    PMPI_Get_count(&status, MPI_BYTE, &count);
    return count == MPI_UNDEFINED || count < 0 ? 0 : static_cast<std::uint64_t>(count);
}

// The request bits of an array call, read before MPI changes them; small arrays stay on the stack.
class RequestBits {
public:
    RequestBits(int count, const MPI_Request* requests) : n_(count < 0 ? 0 : count) {
        std::uint64_t* out = n_ <= kInline ? inline_ : (heap_.resize(static_cast<size_t>(n_)), heap_.data());
        for (int i = 0; i < n_; ++i) out[i] = handle_bits(requests[i]);
        bits_ = out;
    }
    std::uint64_t operator[](int i) const { return bits_[i]; }

private:
    static constexpr int kInline = 64;
    int n_;
    std::uint64_t inline_[kInline];
    std::vector<std::uint64_t> heap_;
    const std::uint64_t* bits_;
};

// Statuses to pass when the program ignores them: small counts on the stack, no allocation.
class Statuses {
public:
    Statuses(int count, MPI_Status* given) {
        if (given != MPI_STATUSES_IGNORE) ptr_ = given;
        else if (count <= kInline) ptr_ = inline_;
        else ptr_ = (heap_.resize(static_cast<size_t>(count)), heap_.data());
    }
    MPI_Status* get() const { return ptr_; }

private:
    static constexpr int kInline = 16;
    MPI_Status inline_[kInline];
    std::vector<MPI_Status> heap_;
    MPI_Status* ptr_;
};

void completed(std::uint64_t bits, const MPI_Status& status, std::uint64_t start, std::uint64_t end) noexcept {
    Requests::Started r;
    if (!requests().finish(bits, &r)) return;  // not started by a traced call, or MPI_REQUEST_NULL
    if (r.receive)
        records().add(Kind::complete, 0, world_rank_in(r.members.get(), status.MPI_SOURCE), status.MPI_TAG, r.id,
                      received_bytes(status), start, end);
    else
        records().add(Kind::complete, 0, -1, 0, r.id, 0, start, end);
}

}  // namespace

int on_MPI_Recv(const void*, void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                MPI_Status* status) {
    if (!g_active) return PMPI_Recv(buf, count, type, source, tag, comm, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    const std::uint64_t start = now_ns();
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, s);
    if (rc == MPI_SUCCESS) {
        Communicators& c = communicators();
        records().add(Kind::recv, c.id(comm), c.world_rank(comm, s->MPI_SOURCE), s->MPI_TAG, 0, received_bytes(*s),
                      start, now_ns());
    }
    return rc;
}

int on_MPI_Sendrecv(const void*, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status* status) {
    if (!g_active)
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                             recvtag, comm, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    const std::uint64_t start = now_ns();
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                           comm, s);
    if (rc == MPI_SUCCESS) {
        Communicators& c = communicators();
        int type_size = 0;
        PMPI_Type_size(sendtype, &type_size);
        const std::uint64_t sent = static_cast<std::uint64_t>(sendcount) * static_cast<std::uint64_t>(type_size);
        const std::uint16_t id = c.id(comm);
        const std::uint64_t end = now_ns();
        records().add(Kind::sendrecv_send, id, c.world_rank(comm, dest), sendtag, 0, sent, start, end);
        const std::int32_t from = source == MPI_PROC_NULL ? kProcNull : c.world_rank(comm, s->MPI_SOURCE);
        records().add(Kind::sendrecv_recv, id, from, s->MPI_TAG, 0, received_bytes(*s), start, end);
    }
    return rc;
}

int on_MPI_Wait(const void*, MPI_Request* request, MPI_Status* status) {
    if (!g_active) return PMPI_Wait(request, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    const std::uint64_t bits = handle_bits(*request), start = now_ns();
    int rc = PMPI_Wait(request, s);
    if (rc == MPI_SUCCESS) completed(bits, *s, start, now_ns());
    return rc;
}

int on_MPI_Test(const void*, MPI_Request* request, int* flag, MPI_Status* status) {
    if (!g_active) return PMPI_Test(request, flag, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    const std::uint64_t bits = handle_bits(*request);
    int rc = PMPI_Test(request, flag, s);
    // A polling loop calls Test far more often than it completes: only a completion reads the clock
    // (its record starts at the return, which a Test's short call hardly moves).
    if (rc == MPI_SUCCESS && *flag) {
        const std::uint64_t done = now_ns();
        completed(bits, *s, done, done);
    }
    return rc;
}

int on_MPI_Waitany(const void*, int count, MPI_Request requests[], int* index, MPI_Status* status) {
    if (!g_active) return PMPI_Waitany(count, requests, index, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    RequestBits bits(count, requests);
    const std::uint64_t start = now_ns();
    int rc = PMPI_Waitany(count, requests, index, s);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) completed(bits[*index], *s, start, now_ns());
    return rc;
}

int on_MPI_Testany(const void*, int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
    if (!g_active) return PMPI_Testany(count, requests, index, flag, status);
    MPI_Status own;
    MPI_Status* s = status == MPI_STATUS_IGNORE ? &own : status;
    RequestBits bits(count, requests);
    int rc = PMPI_Testany(count, requests, index, flag, s);
    if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED) {
        const std::uint64_t done = now_ns();
        completed(bits[*index], *s, done, done);
    }
    return rc;
}

int on_MPI_Waitall(const void*, int count, MPI_Request requests[], MPI_Status statuses[]) {
    if (!g_active) return PMPI_Waitall(count, requests, statuses);
    Statuses own(count, statuses);
    MPI_Status* s = own.get();
    RequestBits bits(count, requests);
    const std::uint64_t start = now_ns();
    int rc = PMPI_Waitall(count, requests, s);
    if (rc == MPI_SUCCESS) {
        const std::uint64_t end = now_ns();
        for (int i = 0; i < count; ++i) completed(bits[i], s[i], start, end);
    }
    return rc;
}

int on_MPI_Testall(const void*, int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
    if (!g_active) return PMPI_Testall(count, requests, flag, statuses);
    Statuses own(count, statuses);
    MPI_Status* s = own.get();
    RequestBits bits(count, requests);
    int rc = PMPI_Testall(count, requests, flag, s);
    if (rc == MPI_SUCCESS && *flag) {
        const std::uint64_t done = now_ns();
        for (int i = 0; i < count; ++i) completed(bits[i], s[i], done, done);
    }
    return rc;
}

// Waitsome and Testsome share everything but the call.
template <class Call>
int some(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[], Call call) {
    Statuses own(incount, statuses);
    MPI_Status* s = own.get();
    RequestBits bits(incount, requests);
    const std::uint64_t start = now_ns();
    int rc = call(incount, requests, outcount, indices, s);
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED) {
        const std::uint64_t end = now_ns();
        for (int i = 0; i < *outcount; ++i) completed(bits[indices[i]], s[i], start, end);
    }
    return rc;
}

int on_MPI_Waitsome(const void*, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    if (!g_active) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    return some(incount, requests, outcount, indices, statuses, PMPI_Waitsome);
}

int on_MPI_Testsome(const void*, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    if (!g_active) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    return some(incount, requests, outcount, indices, statuses, PMPI_Testsome);
}

}  // namespace jobtrace
