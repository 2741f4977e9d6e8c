// TruthNumber: the ground truth's numbers, MPFR at the run's precision (default 256 bits).
#pragma once

#include <span>
#include <vector>

#include <boost/multiprecision/mpfr.hpp>

namespace floatscope::emu {

using TruthNumber = boost::multiprecision::mpfr_float;

/// Sets the precision new TruthNumbers get to at least `bits` while alive. Boost 1.74 keeps one
/// process-wide default (in decimal digits), so the engine sets it once, before any thread starts,
/// and every ground truth of a run shares it.
class TruthPrecisionScope {
public:
    explicit TruthPrecisionScope(int bits);
    TruthPrecisionScope(const TruthPrecisionScope&) = delete;
    TruthPrecisionScope& operator=(const TruthPrecisionScope&) = delete;
    ~TruthPrecisionScope();

private:
    unsigned previous_digits10_;
};

/// Frees the MPFR caches of the thread it lives on when it ends (the constants exp, log and erf keep
/// per thread): a worker thread that runs truth arithmetic holds one for its life, or its caches
/// outlive it (LeakSanitizer reports them).
struct ThreadCacheRelease {
    ThreadCacheRelease() = default;
    ThreadCacheRelease(const ThreadCacheRelease&) = delete;
    ThreadCacheRelease& operator=(const ThreadCacheRelease&) = delete;
    ~ThreadCacheRelease() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

/// A TruthNumber of `bits` bits (NaN until set). Boost's precision() counts decimal digits: 256
/// there is 852 bits.
TruthNumber truth_number(int bits);

/// A vector of TruthNumbers of `precision` bits holding the doubles exactly.
std::vector<TruthNumber> to_truth(std::span<const double> values, int precision);

}  // namespace floatscope::emu
