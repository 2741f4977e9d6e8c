// Each workload's memory estimate against the peak that floatscope-cli reaches running it: the
// run in a child process, its peak resident set from wait4's rusage, and the estimate from the
// engine's memory_estimate (the workload's checks and what its regions keep). A peak more than
// 25% over the estimate (beside the process's own, measured on a trivial run) fails.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "core/memory_budget.hpp"
#include "emulation/simulation/memory_estimate.hpp"
#include "emulation/simulation/precision_policy.hpp"
#include "emulation/workloads/registry.hpp"

using namespace floatscope;

namespace {

/// floatscope-cli run WORKLOAD --formats fp16 --threads 1 --set ...: its peak resident bytes.
double peak_bytes(const std::string& workload, const std::vector<std::string>& assignments) {
    std::vector<std::string> arguments = {FLOATSCOPE_CLI, "run", workload, "--formats", "fp16", "--threads", "1"};
    for (const std::string& a : assignments) arguments.insert(arguments.end(), {"--set", a});
    std::vector<char*> argv;
    for (std::string& a : arguments) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage {};
    REQUIRE(::wait4(child, &status, 0, &usage) == child);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return static_cast<double>(usage.ru_maxrss) * 1024;  // Linux gives kibibytes
}

/// What the engine states the run holds at once on one thread: the truth's and one policy's.
double estimate(const std::string& name, const std::vector<std::string>& assignments) {
    const emu::Workload& workload = emu::find_workload(name);
    emu::RunRequest request;
    request.workload = &workload;
    request.parameters = emu::Parameters::parse(workload.parameters(), assignments);
    request.policies = {emu::parse_policy("fp16")};
    const emu::MemoryEstimate stated = emu::memory_estimate(request);
    return stated.policy + stated.truth;
}

void check_estimate(const std::string& workload, const std::vector<std::string>& assignments) {
    const double process = peak_bytes("sum", {"n=1"});
    const double stated = estimate(workload, assignments);
    const double peak = peak_bytes(workload, assignments);
    INFO(workload << ": peak " << core::format_memory_size(peak) << ", the process alone "
                  << core::format_memory_size(process) << ", estimate " << core::format_memory_size(stated));
    CHECK(peak - process <= 1.25 * stated);
}

}  // namespace

#ifndef FLOATSCOPE_SANITIZED  // a sanitizer's shadow memory is no workload's
TEST_CASE("memory estimates hold: sum", "[memory]") { check_estimate("sum", {"n=4000000", "series=normal"}); }

TEST_CASE("memory estimates hold: gemm with many k values", "[memory]") {
    std::string ks;
    for (int k = 1; k <= 200; ++k) {
        if (!ks.empty()) ks += ',';
        ks += std::to_string(k);
    }
    check_estimate("gemm", {"m=48", "n=48", "k=" + ks});
}

TEST_CASE("memory estimates hold: gemm with a long k", "[memory]") {
    check_estimate("gemm", {"m=16", "n=16", "k=65536"});
}

TEST_CASE("memory estimates hold: mlp-forward at depth 50", "[memory]") {
    check_estimate("mlp-forward", {"depth=50", "width=64", "batch=256"});
}
#endif
