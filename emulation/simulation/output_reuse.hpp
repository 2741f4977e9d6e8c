// OutputReuseScope: while one lives, workloads may keep what a run computed for later runs of the
// process (the advisor's configurations differ in a few units and share the rest). Off otherwise:
// a plain run keeps nothing it does not need.
#pragma once

#include <cstdint>
#include <functional>

namespace floatscope::emu {

class OutputReuseScope {
public:
    /// Each keeper may hold up to `budget_bytes`; what they hold is dropped when the scope ends.
    explicit OutputReuseScope(std::uint64_t budget_bytes);
    OutputReuseScope(const OutputReuseScope&) = delete;
    OutputReuseScope& operator=(const OutputReuseScope&) = delete;
    ~OutputReuseScope();
};

/// The bytes a keeper may hold now: 0 while no scope lives.
std::uint64_t output_reuse_budget();

/// `drop` runs when each scope ends (a keeper registers once, for the life of the process).
void on_output_reuse_end(std::function<void()> drop);

}  // namespace floatscope::emu
