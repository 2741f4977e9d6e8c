// Counters of what emulated operations did (inexact, overflow, NaN, ...), and the thread's active set.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/codec.hpp"
#include "core/exception_flags.hpp"
#include "core/rounding.hpp"

namespace floatscope::emu {

/// What a run of emulated operations produced. A Trace keeps one of these per region.
struct OperationCounters {
    std::uint64_t operations = 0;
    std::uint64_t inexact = 0;
    std::uint64_t underflow = 0;
    std::uint64_t overflow = 0;
    std::uint64_t divide_by_zero = 0;
    std::uint64_t invalid = 0;
    std::uint64_t nan_results = 0;
    std::uint64_t infinite_results = 0;
    std::uint64_t zero_results = 0;

    void record(const core::Rounded& r) {
        const double v = r.value;
        record(r.flags, std::isnan(v)   ? core::ValueClass::NaN
                        : std::isinf(v) ? core::ValueClass::Infinite
                        : v == 0        ? core::ValueClass::Zero
                                        : core::ValueClass::Normal);
    }
    /// A result that is not a double (a format wider than binary64), by its class.
    void record(core::ExceptionFlags f, core::ValueClass result) {
        ++operations;
        inexact += f.has(core::ExceptionFlags::inexact);
        underflow += f.has(core::ExceptionFlags::underflow);
        overflow += f.has(core::ExceptionFlags::overflow);
        divide_by_zero += f.has(core::ExceptionFlags::divide_by_zero);
        invalid += f.has(core::ExceptionFlags::invalid);
        nan_results += result == core::ValueClass::NaN;
        infinite_results += result == core::ValueClass::Infinite;
        zero_results += result == core::ValueClass::Zero;
    }
    OperationCounters& operator+=(const OperationCounters& o);
    friend bool operator==(const OperationCounters&, const OperationCounters&) = default;
};

namespace detail {
inline thread_local OperationCounters* active_counters = nullptr;
}

/// While alive, every emulated operation of this thread is counted into `counters`.
/// Scopes nest; the innermost one counts.
class CountingScope {
public:
    explicit CountingScope(OperationCounters& counters) : previous_(detail::active_counters) {
        detail::active_counters = &counters;
    }
    CountingScope(const CountingScope&) = delete;
    CountingScope& operator=(const CountingScope&) = delete;
    ~CountingScope() { detail::active_counters = previous_; }

private:
    OperationCounters* previous_;
};

/// Counts one result into the active counters; a pointer test when none are active.
inline void count_operation(const core::Rounded& r) {
    if (OperationCounters* counters = detail::active_counters) counters->record(r);
}

}  // namespace floatscope::emu
