// MPI classifier: function names, library paths and the stack verdict.
#include "catch_compat.hpp"

#include "hang/sampler/mpi_classifier.h"
#include "hang/sampler/stack_root.h"

using namespace jobsentry;

TEST_CASE("MPI function names", "[mpi_classifier]") {
    const std::vector<std::pair<const char*, bool>> rows{
        {"MPI_Allreduce", true},   {"PMPI_Allreduce", true},  {"mpi_allreduce_", true},
        {"mpi_allreduce__", true}, {"MPI_ALLREDUCE", true},   {"pmpi_send_", true},
        {"mpi_send_f08", true},    {"mpi_send_f08ts", true},  {"PMPI_ALLREDUCE_", true},
        {"Mpi_Send_", true},       // Fortran names are case-insensitive
        {"main", false},           {"MPI_", false},           {"PMPI_", false},
        {"mpi_", false},           {"mpi__", false},          {"mpi_helper", false},
        {"compute_mpi_", false},   {"my_MPI_Send", false},    {"mpi_send_f09", false},
        {"", false},               {"_ZN3foo8MPI_SendEv", false},
    };
    for (const auto& [name, mpi] : rows) {
        INFO(name);
        CHECK(is_mpi_function_name(name) == mpi);
    }
}

TEST_CASE("MPI library paths", "[mpi_classifier]") {
    const std::vector<std::pair<const char*, bool>> rows{
        {"/usr/lib/x86_64-linux-gnu/libmpi.so.40.30.4", true},
        {"/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_coll_tuned.so", true},
        {"/usr/lib/x86_64-linux-gnu/libopen-pal.so.40", true},
        {"/usr/lib/x86_64-linux-gnu/libopen-rte.so.40", true},
        {"/usr/lib/x86_64-linux-gnu/libpmix.so.2", true},
        {"/usr/lib/x86_64-linux-gnu/libmpich.so.12", true},
        {"/usr/lib/x86_64-linux-gnu/libmpi_mpifh.so.40", true},
        {"libmpi.so", true},
        {"/usr/lib/x86_64-linux-gnu/libc.so.6", false},
        {"/home/u/libmpix_user.so", false},  // a user library whose name merely starts with "libmpi"
        {"/home/u/libmpi-tools/app", false},  // MPI in a directory name only
        {"/home/u/mympi.so", false},
        {"", false},
    };
    for (const auto& [path, mpi] : rows) {
        INFO(path);
        CHECK(is_mpi_library_path(path) == mpi);
    }
}

TEST_CASE("stack_in_mpi: any MPI frame, unnamed frames do not flip it", "[mpi_classifier]") {
    auto frame = [](const char* function, const char* module) {
        Frame f;
        f.function = function;
        f.module = module;
        f.mpi = is_mpi_function_name(function) || is_mpi_library_path(module);
        return f;
    };
    const char* libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    const char* libmpi = "/usr/lib/x86_64-linux-gnu/libmpi.so.40";
    const char* app = "/home/u/app";
    struct Row {
        const char* what;
        std::vector<Frame> frames;
        bool in_mpi;
    };
    const std::vector<Row> rows{
        {"empty", {}, false},
        {"user code", {frame("kernel", app), frame("main", app)}, false},
        {"named MPI call", {frame("MPI_Barrier", app), frame("main", app)}, true},
        {"unnamed frame inside libmpi", {frame("", libmpi), frame("main", app)}, true},
        {"unnamed libc frame below an MPI call", {frame("", libc), frame("", libmpi), frame("PMPI_Recv", libmpi),
                                                   frame("main", app)}, true},
        {"unnamed user frames", {frame("", app), frame("", app), frame("main", app)}, false},
        {"unnamed libc frame in user code", {frame("", libc), frame("compute_mpi_", app), frame("main", app)},
         false},
    };
    for (const auto& row : rows) {
        INFO(row.what);
        CHECK(stack_in_mpi(row.frames) == row.in_mpi);
    }
}

TEST_CASE("polling MPI calls: the C, profiling and Fortran forms of MPI_Test* and MPI_Iprobe", "[classifier]") {
    for (const char* name : {"PMPI_Testany", "MPI_Test", "PMPI_Testall", "MPI_Testsome", "PMPI_Iprobe", "MPI_Improbe",
                             "PMPI_Request_get_status", "MPI_Win_test", "mpi_testany_", "pmpi_iprobe__",
                             "MPI_TESTANY", "ompi_testany_f", "mpi_test_f08"}) {
        INFO(name);
        CHECK(is_polling_mpi_call(name));
    }
    for (const char* name : {"PMPI_Wait", "MPI_Waitany", "PMPI_Recv", "MPI_Probe", "PMPI_Allreduce", "mpi_barrier_",
                             "MPI_Testing_helper", "test", "Testany", "ompi_request_default_test_any", ""}) {
        INFO(name);
        CHECK_FALSE(is_polling_mpi_call(name));
    }
}

TEST_CASE("an unwind is complete when it reaches its thread's entry", "[stack_root]") {
    auto chain = [](std::vector<const char*> outward) {
        std::vector<Frame> frames;
        for (const char* name : outward) frames.push_back(Frame{0x1000, name, "/usr/lib/libc.so.6", false});
        return frames;
    };
    CHECK(reaches_thread_root(chain({"__sched_yield", "PMPI_Sendrecv", "main", "", "__libc_start_main", "_start"})));
    CHECK(reaches_thread_root(chain({"compute", "", "", "__libc_start_main", ""})));  // stripped: _start unnamed
    CHECK(reaches_thread_root(chain({"poll", "progress_thread", "start_thread", "clone3"})));
    // Open MPI polling over TCP, one sample in ~2,000: the vDSO with a wrong caller.
    CHECK_FALSE(reaches_thread_root(chain({"__vdso_clock_gettime", "clock_gettime", ""})));
    CHECK_FALSE(reaches_thread_root(chain({"_start", "a", "b", "c", "d"})));  // _start innermost is no root
    CHECK_FALSE(reaches_thread_root({}));
}
