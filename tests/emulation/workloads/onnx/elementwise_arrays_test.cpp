// The whole-array paths of an emulated run (emulation/workloads/onnx/operators/elementwise_arrays.hpp:
// Add/Sub/Mul/Div with broadcasting, BatchNormalization's per-channel chain, a convolution's bias,
// HardSigmoid, HardSwish, Softmax and LogSoftmax; EmulatedNumerics::apply) against naive loops written here that round
// every operation with MPFR to the compute format's precision: depthwise, grouped and pointwise convolutions with
// strides, pads and dilations, in bf16 (nearest even) and fp16 (toward zero), where no operation is the machine's own.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "core/codec.hpp"
#include "tests/emulation/workloads/onnx/conv2d_test_support.hpp"
#include "tests/emulation/workloads/onnx/shape_linear_test_support.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using namespace floatscope::emu::onnx::testing;

namespace {

/// A compute format's precision and MPFR rounding: every value of the tests stays in its normal
/// range, where rounding to `bits` significant bits is the format's own rounding.
struct Reference {
    int bits;
    mpfr_rnd_t mode;

    /// x op y (given exactly as doubles) correctly rounded to `bits`; op: + - * /.
    double operator()(char op, double x, double y) const {
        mpfr_t a, b, r;
        mpfr_inits2(64, a, b, static_cast<mpfr_ptr>(nullptr));
        mpfr_init2(r, bits);
        mpfr_set_d(a, x, MPFR_RNDN);
        mpfr_set_d(b, y, MPFR_RNDN);
        switch (op) {
            case '+': mpfr_add(r, a, b, mode); break;
            case '-': mpfr_sub(r, a, b, mode); break;
            case '*': mpfr_mul(r, a, b, mode); break;
            default: mpfr_div(r, a, b, mode); break;
        }
        const double result = mpfr_get_d(r, MPFR_RNDN);  // exact: bits <= 53
        mpfr_clears(a, b, r, static_cast<mpfr_ptr>(nullptr));
        return result;
    }
    /// x rounded to the format (an operand's conversion); -0 stays -0.
    double round(double x) const { return x == 0 ? x : (*this)('+', x, 0.0); }
    /// round(round(x) op round(y)): an emulated operation on operands converted first.
    double operation(char op, double x, double y) const { return (*this)(op, round(x), round(y)); }
    /// f(round(x)) as an emulated run takes an elementary function: evaluated in binary64 (MPFR at 53
    /// bits, nearest), then rounded to the format.
    double in_double(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), double x) const {
        mpfr_t r;
        mpfr_init2(r, 53);
        mpfr_set_d(r, round(x), MPFR_RNDN);
        f(r, r, MPFR_RNDN);
        const double result = round(mpfr_get_d(r, MPFR_RNDN));
        mpfr_clear(r);
        return result;
    }
    /// sqrt(round(x)) correctly rounded.
    double sqrt(double x) const {
        mpfr_t r;
        mpfr_init2(r, bits);
        mpfr_set_d(r, round(x), mode);
        mpfr_sqrt(r, r, mode);
        const double result = mpfr_get_d(r, MPFR_RNDN);
        mpfr_clear(r);
        return result;
    }
};

/// An emulated run whose every role and matrix product is `format` in `mode` (products exact,
/// each fused step of a sum rounded to the format, in order), and its MPFR reference.
struct Case {
    const char* format;
    core::RoundingMode mode;
    Reference reference;

    NodeFormats formats() const {
        NodeFormats f = uniform_formats(format);
        for (core::FormatRounding* r : {&f.compute, &f.accumulate, &f.output, &f.matmul.accumulator, &f.matmul.output,
                                        &f.matmul.x.rounding, &f.matmul.y.rounding})
            r->mode = mode;
        return f;
    }
};

const std::vector<Case> cases = {{"bf16", core::RoundingMode::NearestEven, {8, MPFR_RNDN}},
                                 {"fp16", core::RoundingMode::TowardZero, {11, MPFR_RNDZ}}};

/// `count` random values in [-2, 2) (doubles: the operands' conversions are part of what is checked).
std::vector<double> random_values(std::size_t count, std::uint32_t seed, double low = -2, double high = 2) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(low, high);
    std::vector<double> values(count);
    for (double& v : values) v = uniform(random);
    return values;
}

/// A convolution's output as the emulated run must give it: from +0, s = round(s + w * x) per
/// product in im2col's order (the operands converted), then round(s + round(bias)).
std::vector<double> expected_conv(const Conv2d& p, const Reference& r, const std::vector<double>& x,
                                  const std::vector<double>& weights, const std::vector<double>& bias) {
    std::vector<double> sums(static_cast<std::size_t>(p.n * p.m * p.out_h() * p.out_w()), 0.0);
    p.for_each_product([&](std::int64_t o, std::int64_t xi, std::int64_t wi) {
        const double product =
            r.round(x[static_cast<std::size_t>(xi)]) * r.round(weights[static_cast<std::size_t>(wi)]);
        sums[static_cast<std::size_t>(o)] =
            r('+', sums[static_cast<std::size_t>(o)], product);  // exact product: <= 2 x 11 bits
    });
    const auto positions = static_cast<std::size_t>(p.out_h() * p.out_w());
    for (std::size_t i = 0; i < sums.size(); ++i)
        sums[i] = r.operation('+', sums[i], bias[(i / positions) % static_cast<std::size_t>(p.m)]);
    return sums;
}

}  // namespace

TEST_CASE("Depthwise and grouped Conv with a bias, strides, pads and dilations: each rounding as naive loops make it") {
    const std::vector<Conv2d> convolutions = {
        {1, 6, 9, 8, 6, 3, 3, 6, 2, 1, 1, 2, 1, 2, 0, 1},  // depthwise, stride (2, 1), dilation (1, 2), asymmetric pads
        {2, 5, 7, 7, 5, 3, 3, 5, 1, 1, 1, 1, 1, 1, 1, 1},  // depthwise 3x3, stride 1, pads 1 (MobileNet's), 2 images
        {1, 4, 6, 5, 6, 2, 3, 2, 1, 2, 2, 1, 0, 1, 1, 0},  // 2 groups of 2 channels into 3 each
        {2, 6, 5, 4, 4, 1, 1, 2, 1, 1, 1, 1, 0, 0, 0, 0},  // pointwise (X read as it lies), 2 groups, 2 images
        {2, 4, 5, 4, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},  // pointwise, one group
        {1, 4, 5, 4, 3, 1, 1, 1, 2, 1, 1, 1, 0, 0, 0, 0},  // 1x1 with stride (2, 1): im2col
        {1, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1},  // 1x1 with pads: im2col, zeros read in the padding
    };
    std::uint32_t seed = 1;
    for (const Case& k : cases)
        for (const Conv2d& p : convolutions) {
            const auto xv = random_values(static_cast<std::size_t>(p.n * p.c * p.h * p.w), ++seed);
            const auto wv = random_values(static_cast<std::size_t>(p.m * (p.c / p.group) * p.kh * p.kw), ++seed);
            const auto bv = random_values(static_cast<std::size_t>(p.m), ++seed);
            const Tensor<double> x = floats({p.n, p.c, p.h, p.w}, xv), w = floats({p.m, p.c / p.group, p.kh, p.kw}, wv),
                                 b = floats({p.m}, bv);
            const auto y = run_with(EmulatedNumerics(k.formats(), 1), p.conv_node(), {&x, &w, &b});
            INFO(k.format << " conv of " << p.c << " channels in " << p.group << " groups");
            CHECK(y[0].numbers == expected_conv(p, k.reference, xv, wv, bv));
        }
}

TEST_CASE("BatchNormalization's per-channel chain: each operation rounded, as naive loops make it") {
    const std::int64_t n = 2, c = 3, h = 4, w = 5;
    for (const Case& k : cases) {
        const auto xv = random_values(static_cast<std::size_t>(n * c * h * w), 11);
        const auto scale = random_values(c, 12, 0.5, 1.5), bias = random_values(c, 13);
        const auto mean = random_values(c, 14), var = random_values(c, 15, 0.2, 2);
        const Tensor<double> x = floats({n, c, h, w}, xv);
        const Tensor<double> ts = floats({c}, scale), tb = floats({c}, bias), tm = floats({c}, mean),
                             tv = floats({c}, var);
        const double epsilon = 1e-5f;
        const auto y = run_with(EmulatedNumerics(k.formats(), 1), node("BatchNormalization"), {&x, &ts, &tb, &tm, &tv});
        const Reference& r = k.reference;
        std::vector<double> expected;
        for (std::size_t i = 0; i < xv.size(); ++i) {
            const std::size_t ch = (i / static_cast<std::size_t>(h * w)) % static_cast<std::size_t>(c);
            const double deviation = r.sqrt(r.operation('+', var[ch], epsilon));
            const double normalized = r.operation('/', r.operation('-', xv[i], mean[ch]), deviation);
            expected.push_back(r.operation('+', r.operation('*', normalized, scale[ch]), bias[ch]));
        }
        INFO(k.format);
        CHECK(y[0].numbers == expected);
    }
}

TEST_CASE("Add, Sub, Mul and Div broadcast over whole arrays: each element rounded as naive loops make it") {
    // [2, 3, 550] op [3, 1] (a channel's value along the last axis), [550] and [1, 1, 550] (a bias), []
    // (a scalar), [2, 3, 550] (elementwise), and the scalar first: 3300 elements, so that the numerics'
    // chunks of 1024 meet a partial last one and runs that straddle two.
    const std::int64_t last = 550;
    const auto size = static_cast<std::size_t>(6 * last), row_size = static_cast<std::size_t>(last);
    const auto av = random_values(size, 21), channel = random_values(3, 22), row = random_values(row_size, 23, 0.5, 2);
    const auto whole = random_values(size, 24, 0.5, 2);
    const Tensor<double> a = floats({2, 3, last}, av), by_channel = floats({3, 1}, channel),
                         by_row = floats({last}, row), scalar = floats({}, {1.75}),
                         by_row_padded = floats({1, 1, last}, row), elementwise = floats({2, 3, last}, whole);
    for (const Case& k : cases)
        for (const auto& [op, symbol] :
             std::vector<std::pair<const char*, char>>{{"Add", '+'}, {"Sub", '-'}, {"Mul", '*'}, {"Div", '/'}}) {
            const EmulatedNumerics numerics(k.formats(), 1);
            const Reference& r = k.reference;
            std::vector<double> channel_expected, row_expected, scalar_expected, scalar_first, elementwise_expected;
            for (std::size_t i = 0; i < av.size(); ++i) {
                elementwise_expected.push_back(r.operation(symbol, av[i], whole[i]));
                channel_expected.push_back(r.operation(symbol, av[i], channel[(i / row_size) % 3]));
                row_expected.push_back(r.operation(symbol, av[i], row[i % row_size]));
                scalar_expected.push_back(r.operation(symbol, av[i], 1.75));
                scalar_first.push_back(r.operation(symbol, 1.75, av[i]));
            }
            INFO(k.format << " " << op);
            CHECK(run_with(numerics, node(op), {&a, &by_channel})[0].numbers == channel_expected);
            CHECK(run_with(numerics, node(op), {&a, &by_row})[0].numbers == row_expected);
            CHECK(run_with(numerics, node(op), {&a, &by_row_padded})[0].numbers == row_expected);
            CHECK(run_with(numerics, node(op), {&a, &elementwise})[0].numbers == elementwise_expected);
            CHECK(run_with(numerics, node(op), {&a, &scalar})[0].numbers == scalar_expected);
            CHECK(run_with(numerics, node(op), {&scalar, &a})[0].numbers == scalar_first);
        }
}

namespace {

/// x and y hold the same values bit for bit, or NaN at the same places (NaN's bits aside).
bool same_values(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!(std::isnan(x[i]) && std::isnan(y[i])) &&
            std::bit_cast<std::uint64_t>(x[i]) != std::bit_cast<std::uint64_t>(y[i]))
            return false;
    return true;
}

/// max(0, min(1, v)) as ONNX's Max and Min give it: NaN stays NaN.
double clamp_unit(double v) { return std::isnan(v) ? v : std::max(0.0, std::min(1.0, v)); }

}  // namespace

TEST_CASE("HardSigmoid and HardSwish over whole arrays: each operation rounded as naive loops make it") {
    // Random values across both clamp edges (HardSigmoid's +-2.5, HardSwish's +-3), the edges
    // themselves, signed zeros, infinities, NaN and large values; with alpha = 0.25, sums that are
    // ties of bf16 (0.75 + 2^-9) and fp16 (0.75 + 2^-12, 0.75 + 3 * 2^-12).
    std::vector<double> xv = random_values(4096, 31, -4, 4);
    for (double v : std::initializer_list<double>{0.0, -0.0, 2.5, -2.5, 3.0, -3.0, 1 + 0x1p-7, 1 + 0x1p-10,
                                                  1 + 3 * 0x1p-10, -(1 + 0x1p-7), 1e4, -1e4, INFINITY, -INFINITY, NAN})
        xv.push_back(v);
    const Tensor<double> x = floats({static_cast<std::int64_t>(xv.size())}, xv);
    std::vector<Case> all = cases;
    all.push_back({"fp32", core::RoundingMode::NearestEven, {24, MPFR_RNDN}});  // the machine's own arithmetic
    for (const Case& k : all)
        for (const double alpha : {static_cast<double>(0.2f), 0.25}) {
            const Reference& r = k.reference;
            const EmulatedNumerics numerics(k.formats(), 1);
            std::vector<double> sigmoid_expected, swish_expected;
            const double sixth = 1.0f / 6.0f;
            for (double v : xv) {
                sigmoid_expected.push_back(clamp_unit(r.operation('+', r.operation('*', alpha, v), 0.5)));
                swish_expected.push_back(
                    r.operation('*', v, clamp_unit(r.operation('+', r.operation('*', sixth, v), 0.5))));
            }
            INFO(k.format << " alpha " << alpha);
            CHECK(same_values(
                run_with(numerics, node("HardSigmoid", {{"alpha", float_attribute(alpha)}}), {&x})[0].numbers,
                sigmoid_expected));
            CHECK(same_values(run_with(numerics, node("HardSwish"), {&x})[0].numbers, swish_expected));
        }
}

TEST_CASE("Softmax and LogSoftmax over whole arrays: each operation rounded as naive loops make it") {
    // [2, 3, 5] along its last axis (contiguous groups) and its middle one (strided); values within
    // +-4 keep every exp and quotient in fp16's normal range, where the reference's rounding is its.
    const std::int64_t outer = 2, middle = 3, inner = 5;
    const auto xv = random_values(static_cast<std::size_t>(outer * middle * inner), 41, -4, 4);
    const Tensor<double> x = floats({outer, middle, inner}, xv);
    for (const Case& k : cases)
        for (const std::int64_t axis : {2, 1})
            for (const bool logarithm : {false, true}) {
                const Reference& r = k.reference;
                std::vector<double> expected(xv.size());
                const std::int64_t length = axis == 2 ? inner : middle, stride = axis == 2 ? 1 : inner;
                for (std::int64_t o = 0; o < outer; ++o)
                    for (std::int64_t i = 0; i < (axis == 2 ? middle : inner); ++i) {
                        const std::int64_t first = axis == 2 ? (o * middle + i) * inner : o * middle * inner + i;
                        const auto at = [&](std::int64_t j) { return static_cast<std::size_t>(first + j * stride); };
                        double max = xv[at(0)];
                        for (std::int64_t j = 0; j < length; ++j) max = std::max(max, xv[at(j)]);
                        std::vector<double> shifted, exps;
                        double sum = 0;
                        for (std::int64_t j = 0; j < length; ++j) {
                            shifted.push_back(r.operation('-', xv[at(j)], max));
                            exps.push_back(r.in_double(mpfr_exp, shifted.back()));
                            sum = r('+', sum, r.round(exps.back()));
                        }
                        const double log_sum = r.in_double(mpfr_log, sum);
                        for (std::int64_t j = 0; j < length; ++j)
                            expected[at(j)] = logarithm
                                                  ? r.operation('-', shifted[static_cast<std::size_t>(j)], log_sum)
                                                  : r.operation('/', exps[static_cast<std::size_t>(j)], sum);
                    }
                INFO(k.format << " axis " << axis << (logarithm ? " LogSoftmax" : " Softmax"));
                CHECK(run_with(EmulatedNumerics(k.formats(), 1),
                               node(logarithm ? "LogSoftmax" : "Softmax", {{"axis", int_attribute(axis)}}), {&x})[0]
                          .numbers == expected);
            }
}

TEST_CASE("EmulatedNumerics::apply on specials and edges equals its scalar operations with b whole or single and out "
          "over a or b") {
    // NaN, infinities, signed zeros, the formats' subnormals and overflow, doubles below every format's
    // grid and past its range: the array path converts operands into per-thread buffers (repeating a
    // single b) and must give what add() ... div() give element by element.
    std::vector<double> values = {std::nan(""), -std::nan(""), INFINITY, -INFINITY, 0.0, -0.0, 0x1p-133, -0x1p-140,
                                  0x1p-20, -0x1.8p-24, 0x1p-1074, 3.0e38, -3.4e38, 65504.0, 70000.0, 1.0, -1.5,
                                  0x1.0101p0, 0x1.ffffffp127, 1e300};
    const std::vector<double> random = random_values(700, 25, -4, 4);  // over one buffer growth and none
    values.insert(values.end(), random.begin(), random.end());
    std::vector<double> partners(values.rbegin(), values.rend());
    for (const Case& k : cases)
        for (const Operation op : {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div}) {
            const EmulatedNumerics numerics(k.formats(), 1);
            const auto scalar = [&](double x, double y) {
                switch (op) {
                    case Operation::Add: return numerics.add(x, y);
                    case Operation::Sub: return numerics.sub(x, y);
                    case Operation::Mul: return numerics.mul(x, y);
                    default: return numerics.div(x, y);
                }
            };
            std::vector<double> whole_expected, single_expected;
            for (std::size_t i = 0; i < values.size(); ++i) {
                whole_expected.push_back(scalar(values[i], partners[i]));
                single_expected.push_back(scalar(values[i], partners[7]));
            }
            INFO(k.format << " operation " << static_cast<int>(op));
            std::vector<double> out(values.size());
            numerics.apply(op, values, partners, out);
            CHECK(same_values(out, whole_expected));
            numerics.apply(op, values, std::span<const double>(&partners[7], 1), out);
            CHECK(same_values(out, single_expected));
            std::vector<double> over_a = values, over_b = partners;
            numerics.apply(op, over_a, partners, over_a);
            CHECK(same_values(over_a, whole_expected));
            numerics.apply(op, values, over_b, over_b);
            CHECK(same_values(over_b, whole_expected));
        }
}

TEST_CASE("EmulatedNumerics::apply in small IEEE formats equals its scalar operations in nearest even through "
          "binary64 and in other modes") {
    // Formats of at most 24 bits with float's range or less take binary64's result rounded once in nearest even
    // (double rounding is innocuous there), not in other modes; the scalar operations round the exact result
    // (Arithmetic). Operands: every kind of value of the format from random codes (subnormals, the largest,
    // infinities, NaN); for Div and Add, operands whose exact results lie on or next to a midpoint of the
    // format's grid; values of the grid plus or minus the smallest subnormal, whose binary64 sum may be the
    // grid point itself (toward zero then rounds otherwise than once).
    std::mt19937_64 random(52);
    for (const char* name : {"bf16", "fp16", "fp8_e5m2", "tf32", "e8m13", "e4m3"})
        for (const core::RoundingMode mode : {core::RoundingMode::NearestEven, core::RoundingMode::TowardZero}) {
            const core::FormatSpec format = core::parse_format(name);
            NodeFormats formats = uniform_formats(name);
            formats.compute.mode = mode;
            const EmulatedNumerics numerics(formats, 1);
            const auto code = [&] {
                return core::decode_bits(format, random() >> (64 - format.total_bits())).value;
            };
            std::vector<double> a, b;
            for (int i = 0; i < 3000; ++i) {
                a.push_back(code());
                b.push_back(code());
            }
            // Quotients near midpoints: a = round(mu * b) for a midpoint mu (one bit more than the format
            // holds, odd last bit); sums on them: 1 + j ulp plus half an ulp, or half an ulp and a bit.
            const double ulp = std::ldexp(1.0, -format.mantissa_bits);
            const double tiny = core::binary_geometry(format).min_subnormal;
            std::uniform_int_distribution<int> steps(0, (1 << format.mantissa_bits) - 1);
            for (int i = 0; i < 1000; ++i) {
                const double sign = i % 4 < 2 ? 1 : -1;
                const double divisor = numerics.operand(1 + steps(random) * ulp);
                const double mu = 1 + (2 * steps(random) + 1) * ulp / 2;
                a.push_back(numerics.operand(mu * divisor));
                b.push_back(divisor);
                a.push_back(numerics.operand(1 + steps(random) * ulp));
                b.push_back((i % 2 == 0 ? ulp / 2 : ulp / 2 + ulp * ulp / 2) * sign);
                a.push_back(numerics.operand(1 + steps(random) * ulp));
                b.push_back(tiny * sign);
            }
            for (const Operation op : {Operation::Add, Operation::Sub, Operation::Mul, Operation::Div}) {
                std::vector<double> expected, out(a.size());
                for (std::size_t i = 0; i < a.size(); ++i) {
                    switch (op) {
                        case Operation::Add: expected.push_back(numerics.add(a[i], b[i])); break;
                        case Operation::Sub: expected.push_back(numerics.sub(a[i], b[i])); break;
                        case Operation::Mul: expected.push_back(numerics.mul(a[i], b[i])); break;
                        default: expected.push_back(numerics.div(a[i], b[i])); break;
                    }
                }
                // Without NaN results too: a NaN anywhere sends the whole call to Arithmetic.
                std::vector<double> finite_a, finite_b, finite_expected;
                for (std::size_t i = 0; i < a.size(); ++i)
                    if (!std::isnan(expected[i])) {
                        finite_a.push_back(a[i]);
                        finite_b.push_back(b[i]);
                        finite_expected.push_back(expected[i]);
                    }
                INFO(name << " " << core::to_string(mode) << " operation " << static_cast<int>(op));
                numerics.apply(op, a, b, out);
                CHECK(same_values(out, expected));
                std::vector<double> finite_out(finite_a.size());
                numerics.apply(op, finite_a, finite_b, finite_out);
                CHECK(same_values(finite_out, finite_expected));
                // One b for every a (BatchNormalization's per-channel steps), each a divisor of the midpoints.
                const std::span<const double> single(&b[3000], 1);
                std::vector<double> single_expected, single_a(a.begin() + 3000, a.end());
                for (double x : single_a) {
                    const double r = op == Operation::Add   ? numerics.add(x, single[0])
                                     : op == Operation::Sub ? numerics.sub(x, single[0])
                                     : op == Operation::Mul ? numerics.mul(x, single[0])
                                                            : numerics.div(x, single[0]);
                    single_expected.push_back(r);
                }
                std::vector<double> single_out(single_a.size());
                numerics.apply(op, single_a, single, single_out);
                CHECK(same_values(single_out, single_expected));
            }
        }
}
