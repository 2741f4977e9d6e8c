// median: the middle of errors by radix buckets, against the middle of a fully sorted copy.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "emulation/simulation/median.hpp"

using floatscope::emu::median;

namespace {

/// The reference: sort everything, take the middle (the mean of the two middle values, each halved).
double sorted_median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : values[n / 2 - 1] / 2 + values[n / 2] / 2;
}

void check_median(std::vector<double> values) {
    const double expected = sorted_median(values);
    INFO("n = " << values.size());
    CHECK(median(values) == expected);
}

}  // namespace

TEST_CASE("median equals the middle of the sorted values, whatever their spread, count and parity") {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(0, 1);
    std::exponential_distribution<double> spread(0.05);
    for (std::size_t n : {1, 2, 3, 4095, 4096, 4097, 10000, 10001, 65537}) {
        std::vector<double> uniform(n), binades(n), narrow(n), few(n), with_specials(n);
        for (std::size_t i = 0; i < n; ++i) {
            uniform[i] = unit(random);
            binades[i] = std::ldexp(1 + unit(random), -static_cast<int>(spread(random)) - 1000 * (i % 3 == 0));
            narrow[i] = 1 + unit(random) / 64;  // every value in one bucket of 16 bits
            few[i] = static_cast<double>(random() % 5) / 4;  // duplicates, zeros among them
            with_specials[i] = i % 7 == 0    ? std::numeric_limits<double>::infinity()
                               : i % 5 == 0  ? 0.0
                               : i % 11 == 0 ? std::numeric_limits<double>::denorm_min() * static_cast<double>(i)
                                             : unit(random);
        }
        check_median(uniform);
        check_median(binades);
        check_median(narrow);
        check_median(few);
        check_median(with_specials);
    }
}

TEST_CASE("median's two middle values may lie in different buckets, far apart") {
    for (std::size_t half : {2048, 5000}) {
        std::vector<double> values(half, 1e-300);
        values.insert(values.end(), half, 1e300);
        std::shuffle(values.begin(), values.end(), std::mt19937_64(3));
        CHECK(median(values) == 1e-300 / 2 + 1e300 / 2);
        check_median(values);
        // An odd count: the middle value alone, just past the first half.
        values.push_back(1e300);
        check_median(values);
    }
}

TEST_CASE("median keeps the sorted order where the bit patterns do not give it: negative values and -0") {
    std::mt19937_64 random(11);
    std::normal_distribution<double> normal;
    std::vector<double> values(9001);
    for (double& v : values) v = normal(random);
    values[17] = -0.0;
    check_median(values);
}
