// median: non-negative doubles order as their bit patterns do, so one pass counts them by their top
// 16 bits (sign, exponent, 4 significand bits), and only the bucket or two that hold the middle
// ranks go to nth_element.
#include "emulation/simulation/median.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace floatscope::emu {

namespace {

constexpr int bucket_shift = 48;
constexpr std::size_t bucket_count = std::size_t{1} << (64 - bucket_shift);
/// Above this pattern a double is NaN or has its sign set (-0 included): those keep nth_element's
/// order, which the patterns do not give.
constexpr std::uint64_t largest_ordered = 0x7ff0000000000000;  // +inf
/// Below this many values nth_element costs less than counting into the buckets.
constexpr std::size_t fewest_bucketed = 4096;

/// The value of rank `upper` in `values`, or with `even` the mean of it and the one of rank upper - 1
/// (lower / 2 + upper / 2), by nth_element.
double middle_of(std::span<double> values, std::size_t upper, bool even) {
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(upper), values.end());
    const double at_upper = values[upper];
    if (!even) return at_upper;
    const double at_lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(upper));
    return at_lower / 2 + at_upper / 2;
}

}  // namespace

double median(std::span<double> values) {
    const std::size_t n = values.size();
    const bool even = n % 2 == 0;
    if (n < fewest_bucketed) return middle_of(values, n / 2, even);
    std::vector<std::size_t> counts(bucket_count, 0);
    std::uint64_t largest = 0;
    for (double v : values) {
        const auto bits = std::bit_cast<std::uint64_t>(v);
        largest = std::max(largest, bits);
        ++counts[bits >> bucket_shift];
    }
    if (largest > largest_ordered) return middle_of(values, n / 2, even);
    // The middle ranks (n / 2 - 1 for an even count, and n / 2) lie in buckets first ... last.
    const std::size_t lowest_rank = even ? n / 2 - 1 : n / 2;
    std::size_t first = 0, below_first = 0;
    for (; below_first + counts[first] <= lowest_rank; ++first) below_first += counts[first];
    std::size_t last = first, through_last = below_first + counts[first];
    for (; through_last <= n / 2; ++last) through_last += counts[last + 1];
    std::vector<double> middle;
    middle.reserve(through_last - below_first);
    for (double v : values) {
        const std::size_t bucket = std::bit_cast<std::uint64_t>(v) >> bucket_shift;
        if (bucket >= first && bucket <= last) middle.push_back(v);
    }
    // The middle bucket(s) hold ranks below_first ... through_last - 1 of all the values, in order.
    return middle_of(middle, n / 2 - below_first, even);
}

}  // namespace floatscope::emu
