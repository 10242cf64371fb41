// See preload_launch.h.
#include "tools/mpiwrap/preload_launch.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "base/beside_self.h"
#include "base/launcher.h"

namespace jobsentry {

namespace {
volatile pid_t g_child = -1;  // the command, for forwarding SIGTERM/SIGINT
}

MpiFlavor choose_mpi(const std::string& word, const std::vector<std::string>& command, const std::string& who,
                     const std::string& doing) {
    if (word != "auto") return *parse_mpi_flavor(word);
    ProgramMpi found = detect_program_mpi(command);
    MpiFlavor mpi = found.flavor.value_or(MpiFlavor::open_mpi);
    std::cerr << who << ": " << doing << " an " << (mpi == MpiFlavor::mpich ? "MPICH" : "Open MPI") << " program ("
              << (found.flavor ? found.why : "no file of the command names its MPI: the default")
              << "; --mpi sets it)\n";
    return mpi;
}

std::string find_module(MpiFlavor mpi, const std::string& name, const char* env_var, const std::string& who) {
    if (const char* env = std::getenv(env_var)) return env;
    const std::string file = "lib" + name + (mpi == MpiFlavor::mpich ? "-mpich.so" : ".so");
    std::string found = find_beside_self(file, {"", "../lib"});
    if (found.empty())
        std::cerr << who << ": cannot find " << file << " next to jobsentry; set " << env_var << " to its path\n";
    return found;
}

std::string prepare_trace_dir(const std::string& dir, const char* extension, const std::string& who) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    auto absolute = std::filesystem::absolute(dir, ec);
    if (ec || !std::filesystem::is_directory(absolute)) {
        std::cerr << who << ": cannot create the trace directory " << dir << '\n';
        return {};
    }
    for (const auto& entry : std::filesystem::directory_iterator(absolute, ec))
        if (entry.path().extension() == extension) std::filesystem::remove(entry.path(), ec);
    return absolute.string();
}

std::optional<int> run_preloaded(const std::vector<std::string>& command, const std::string& module,
                  const std::vector<std::pair<std::string, std::string>>& environment, const std::string& who) {
    // The module is inert in processes that never call MPI_Init (mpirun, orted, shells).
    std::string ld = module;
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) ld += std::string(":") + old;
    setenv("LD_PRELOAD", ld.c_str(), 1);
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    // Ranks write their traces when SIGTERM ends a hung job; Open MPI's
    // launcher sends SIGKILL 1 s after SIGTERM, too soon on a loaded node
    // (tests/rma/hang_killed.sh lost a rank's trace 1 run in 4 at load 10).
    // Open MPI 4's mpirun waits this long twice (SIGCONT, wait, SIGTERM, wait,
    // SIGKILL; strace of a killed rma-check job): such a job ends about 20 s
    // after its SIGTERM. A user's own setting wins.
    for (const char* grace : {"OMPI_MCA_odls_base_sigkill_timeout", "PRTE_MCA_odls_base_sigkill_timeout"})
        setenv(grace, "10", 0);
    Launch launch = launch_command(command);
    unsetenv("LD_PRELOAD");
    if (!launch.error.empty()) {
        std::cerr << who << ": " << launch.error << '\n';
        return std::nullopt;
    }
    // Ended from outside (timeout, scheduler): pass it on to the command; the caller still reads
    // what the ranks wrote.
    g_child = launch.pid;
    struct sigaction sa{};
    sa.sa_handler = [](int sig) {
        if (g_child > 0) kill(g_child, sig);
    };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    int wstatus = 0;
    while (waitpid(launch.pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    g_child = -1;
    return shell_status(wstatus);
}

}  // namespace jobsentry
