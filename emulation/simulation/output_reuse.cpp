#include "emulation/simulation/output_reuse.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace floatscope::emu {

namespace {

std::atomic<std::uint64_t> budget{0};
std::mutex keepers_mutex;

std::vector<std::function<void()>>& keepers() {
    static std::vector<std::function<void()>> drops;
    return drops;
}

}  // namespace

OutputReuseScope::OutputReuseScope(std::uint64_t budget_bytes) { budget = budget_bytes; }

OutputReuseScope::~OutputReuseScope() {
    budget = 0;
    const std::lock_guard<std::mutex> lock(keepers_mutex);
    for (const std::function<void()>& drop : keepers()) drop();
}

std::uint64_t output_reuse_budget() { return budget; }

void on_output_reuse_end(std::function<void()> drop) {
    const std::lock_guard<std::mutex> lock(keepers_mutex);
    keepers().push_back(std::move(drop));
}

}  // namespace floatscope::emu
