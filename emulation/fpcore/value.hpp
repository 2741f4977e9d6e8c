// Value: what an FPCore expression evaluates to - a number of the evaluation's domain, a boolean,
// or a tensor of values - and the limits that keep an evaluation finite.
#pragma once

#include <time.h>

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace floatscope::emu::fpcore {

template <class N>
struct Value {
    enum class Kind : unsigned char { Number, Boolean, Tensor };
    Kind kind = Kind::Number;
    bool boolean = false;
    N number{};
    std::shared_ptr<const std::vector<Value>> elements;  ///< Tensor: the first dimension's entries

    Value() = default;
    explicit Value(N n) : number(std::move(n)) {}

    /// The number n (constructed in place: defaulting a number and then assigning it costs twice).
    static Value of(N n) { return Value(std::move(n)); }
};

/// Bounds on one evaluation: loops stop with BudgetExceeded past them.
struct EvaluationLimits {
    /// Loop iterations and tensor elements, all loops together; the runner gives an emulated
    /// evaluation less (twice the exact program's iterations and 1000 more). The default lets every
    /// terminating loop of the FPBench corpus finish (Newton's method stops at 10^5) but Rocket
    /// Trajectory's 2 * 10^6 iterations of some 50 operations, which take minutes in MPFR.
    long long max_iterations = 100'000;
    /// A loop whose test is the constant TRUE never ends by design (FPBench's apron benchmarks
    /// state invariants of such loops): it runs this many iterations and gives its result there.
    long long endless_loop_iterations = 1000;
    double max_seconds = 60;  ///< CPU time of the evaluating thread (not wall time: a busy machine
                              ///< must not change which benchmarks evaluate)
};

/// CPU seconds used by the calling thread so far.
inline double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// An evaluation ran past its EvaluationLimits.
class BudgetExceeded : public Error {
public:
    using Error::Error;
};

}  // namespace floatscope::emu::fpcore
