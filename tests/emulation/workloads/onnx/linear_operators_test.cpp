// Tests of the ONNX linear operators (MatMul, Gemm, Conv, ConvTranspose, pools): small cases worked
// out by hand, naive loops written here (MPFR, native float fma in im2col order, exact integers)
// against the truth and the emulated run, roundings that only the node's formats explain, and the
// direct depthwise kernel against the im2col path.
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>
#include <mpfr.h>

#include "emulation/accumulation/exact_kernels.hpp"
#include "emulation/workloads/onnx/graph_evaluation.hpp"
#include "emulation/workloads/onnx/operators/depthwise_convolution.hpp"
#include "tests/emulation/workloads/onnx/conv2d_test_support.hpp"
#include "tests/emulation/workloads/onnx/shape_linear_test_support.hpp"

using namespace floatscope;
using namespace floatscope::emu;
using namespace floatscope::emu::onnx;
using namespace floatscope::emu::onnx::testing;
using Catch::Contains;

namespace {

const NodeFormats fp32 = uniform_formats("fp32");

/// Formats whose elementwise arithmetic is `compute`, sums `accumulate`, matrix products
/// exact-product fp32 sequential (operands and results in fp32).
NodeFormats formats(const char* compute, const char* accumulate) {
    const PrecisionPolicy policy = uniform_policy(core::parse_format("fp32"));
    NodeFormats f = uniform_formats("fp32");
    f.compute = {core::parse_format(compute), core::RoundingMode::NearestEven};
    f.accumulate = {core::parse_format(accumulate), core::RoundingMode::NearestEven};
    f.matmul = policy.matmul_model(policy.at(Role::Compute), policy.at(Role::Accumulate), policy.at(Role::Output));
    return f;
}

/// `count` random fp32 values in [-2, 2).
std::vector<double> random_floats(std::size_t count, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-2, 2);
    std::vector<double> values(count);
    for (double& v : values) v = uniform(random);
    return values;
}

/// `count` random integers in [-4, 4], as doubles (their sums of products are exact).
std::vector<double> random_integers(std::size_t count, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> uniform(-4, 4);
    std::vector<double> values(count);
    for (double& v : values) v = uniform(random);
    return values;
}

/// An MPFR number of the test's own, at a precision that keeps every sum below exact.
struct Exact {
    mpfr_t v;
    Exact() {
        mpfr_init2(v, 1024);
        mpfr_set_zero(v, 1);
    }
    Exact(const Exact&) = delete;
    Exact(Exact&& o) noexcept {
        mpfr_init2(v, 1024);
        mpfr_swap(v, o.v);
    }
    ~Exact() { mpfr_clear(v); }
};

/// Each output of convolution `p` of x by w without a bias: its sum of products, exact (1024 bits).
std::vector<Exact> exact_convolution(const Conv2d& p, const std::vector<double>& xv, const std::vector<double>& wv) {
    std::vector<Exact> exact(static_cast<std::size_t>(p.n * p.m * p.out_h() * p.out_w()));
    p.for_each_product([&](std::int64_t o, std::int64_t xi, std::int64_t wi) {
        Exact product;
        mpfr_set_d(product.v, xv[static_cast<std::size_t>(xi)], MPFR_RNDN);
        mpfr_mul_d(product.v, product.v, wv[static_cast<std::size_t>(wi)], MPFR_RNDN);
        mpfr_add(exact[static_cast<std::size_t>(o)].v, exact[static_cast<std::size_t>(o)].v, product.v, MPFR_RNDN);
    });
    return exact;
}

}  // namespace

TEST_CASE("MatMul: a hand-worked product, numpy's vector promotion and batch broadcasting") {
    // [[1 2 3] [4 5 6]] x [[1 0] [0 1] [1 1]] = [[1+3, 2+3] [4+6, 5+6]] = [[4 5] [10 11]]
    const Tensor<double> a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor<double> b = floats({3, 2}, {1, 0, 0, 1, 1, 1});
    CHECK(run_truth(node("MatMul"), {&a, &b})[0].numbers == std::vector<double>{4, 5, 10, 11});
    CHECK(run_emulated(fp32, node("MatMul"), {&a, &b})[0].numbers == std::vector<double>{4, 5, 10, 11});

    const Tensor<double> row = floats({3}, {1, 1, 1});  // [1 1 1] x b = [2 2]; a x [1 1 1] = [6 15]
    const auto vector_matrix = run_truth(node("MatMul"), {&row, &b});
    CHECK(vector_matrix[0].shape == Shape{2});
    CHECK(vector_matrix[0].numbers == std::vector<double>{2, 2});
    const auto matrix_vector = run_truth(node("MatMul"), {&a, &row});
    CHECK(matrix_vector[0].shape == Shape{2});
    CHECK(matrix_vector[0].numbers == std::vector<double>{6, 15});
    CHECK(run_truth(node("MatMul"), {&row, &row})[0].shape == Shape{});

    // [2, 1, 2, 3] x [3, 3, 2] -> [2, 3, 2, 2]: batch (i, j) multiplies A[i][0] by B[j].
    const std::vector<double> av = random_integers(2 * 2 * 3, 1), bv = random_integers(3 * 3 * 2, 2);
    const Tensor<double> ab = floats({2, 1, 2, 3}, av), bb = floats({3, 3, 2}, bv);
    const auto batched = run_truth(node("MatMul"), {&ab, &bb});
    REQUIRE(batched[0].shape == Shape{2, 3, 2, 2});
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            for (int r = 0; r < 2; ++r)
                for (int col = 0; col < 2; ++col) {
                    double sum = 0;
                    for (int k = 0; k < 3; ++k) sum += av[(i * 2 + r) * 3 + k] * bv[(j * 3 + k) * 2 + col];
                    CHECK(batched[0].numbers[((i * 3 + j) * 2 + r) * 2 + col] == sum);
                }
    const Tensor<double> wrong = floats({2, 2}, {1, 2, 3, 4});
    CHECK_THROWS_WITH(run_truth(node("MatMul"), {&a, &wrong}), Contains("node 'test_MatMul' (MatMul)"));
}

TEST_CASE("MatMul's emulated product follows the node's accumulation model") {
    // [2048 1 1] . [1 1 1]: an fp16 accumulator gives 2048 + 1 = 2049 -> 2048 (ties to even, spacing
    // 2), + 1 -> 2048 again; the truth 2050.
    const Tensor<double> a = floats({1, 3}, {2048, 1, 1}), b = floats({3, 1}, {1, 1, 1});
    CHECK(run_truth(node("MatMul"), {&a, &b})[0].numbers == std::vector<double>{2050});
    CHECK(run_emulated(uniform_formats("fp16"), node("MatMul"), {&a, &b})[0].numbers == std::vector<double>{2048});
    CHECK(run_emulated(fp32, node("MatMul"), {&a, &b})[0].numbers == std::vector<double>{2050});
}

TEST_CASE("Gemm: alpha, beta, transA, transB and a broadcast C") {
    // A' = A^T = [[1 3] [2 4]], B' = B^T = [[1 0] [1 1]]: A'B' = [[1+3, 3] [2+4, 4]] = [[4 3] [6 4]];
    // 2 * A'B' + 0.5 * [10 20] = [[8+5, 6+10] [12+5, 8+10]].
    const Tensor<double> a = floats({2, 2}, {1, 2, 3, 4}), b = floats({2, 2}, {1, 1, 0, 1});
    const Tensor<double> c = floats({2}, {10, 20});
    const Node gemm = node("Gemm", {{"alpha", float_attribute(2)},
                                    {"beta", float_attribute(0.5)},
                                    {"transA", int_attribute(1)},
                                    {"transB", int_attribute(1)}});
    CHECK(run_truth(gemm, {&a, &b, &c})[0].numbers == std::vector<double>{13, 16, 17, 18});
    CHECK(run_emulated(fp32, gemm, {&a, &b, &c})[0].numbers == std::vector<double>{13, 16, 17, 18});
    // AB = [[1 2] [3 4]] [[1 1] [0 1]] = [[1, 1+2] [3, 3+4]]; C (M, 1) = [1 2] broadcasts along N.
    const Tensor<double> column = floats({2, 1}, {1, 2});
    CHECK(run_truth(node("Gemm"), {&a, &b, &column})[0].numbers == std::vector<double>{1 + 1, 3 + 1, 3 + 2, 7 + 2});
    CHECK(run_truth(node("Gemm"), {&a, &b, nullptr})[0].numbers == std::vector<double>{1, 3, 3, 7});
    const Tensor<double> wrong_c = floats({3}, {1, 2, 3});
    CHECK_THROWS_WITH(run_truth(node("Gemm"), {&a, &b, &wrong_c}), Contains("node 'test_Gemm' (Gemm)"));
}

TEST_CASE("Gemm rounds no multiplication by 1 and adds no C when beta is 0") {
    // Products exact in fp32, elementwise arithmetic in bf16: [1 2^-10] . [1 1] = 1 + 2^-10 is an fp32
    // value that bf16 (8 significant bits) does not have. alpha = 1 keeps it; alpha = 2 rounds
    // 2 + 2^-9 to bf16's 2.
    const NodeFormats bf16_elementwise = formats("bf16", "fp32");
    const Tensor<double> a = floats({1, 2}, {1, 0x1p-10}), b = floats({2, 1}, {1, 1});
    CHECK(run_emulated(bf16_elementwise, node("Gemm"), {&a, &b})[0].numbers == std::vector<double>{1 + 0x1p-10});
    CHECK(run_emulated(bf16_elementwise, node("Gemm", {{"alpha", float_attribute(2)}}), {&a, &b})[0].numbers ==
          std::vector<double>{2});
    const Tensor<double> nan = floats({1}, {std::nan("")});
    CHECK(run_emulated(bf16_elementwise, node("Gemm", {{"beta", float_attribute(0)}}), {&a, &b, &nan})[0].numbers ==
          std::vector<double>{1 + 0x1p-10});
    // beta = 1: C added as it is, the sum rounded once in bf16: 1 + 2^-10 + 1 -> 2.
    const Tensor<double> one = floats({1}, {1});
    CHECK(run_emulated(bf16_elementwise, node("Gemm"), {&a, &b, &one})[0].numbers == std::vector<double>{2});
}

TEST_CASE("Conv: dilations, strides, pads and auto_pad worked out by hand") {
    // x = 0..8 as 3x3; a 2x2 kernel [[1 10] [100 1000]] dilated by 2 reaches x[0][0], x[0][2],
    // x[2][0], x[2][2]: 0 + 10*2 + 100*6 + 1000*8 = 8620, one output.
    const Tensor<double> x = floats({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
    const Tensor<double> w = floats({1, 1, 2, 2}, {1, 10, 100, 1000});
    const auto dilated = run_truth(node("Conv", {{"dilations", ints_attribute({2, 2})}}), {&x, &w});
    CHECK(dilated[0].shape == Shape{1, 1, 1, 1});
    CHECK(dilated[0].numbers == std::vector<double>{8620});

    // 1-D: x = [1 2 3 4 5], w = [1 1 1], stride 2, pads [1 0]: windows at -1..1, 1..3 = [0+1+2, 2+3+4];
    // bias 0.5 added after.
    const Tensor<double> x1 = floats({1, 1, 5}, {1, 2, 3, 4, 5}), w1 = floats({1, 1, 3}, {1, 1, 1});
    const Tensor<double> bias = floats({1}, {0.5});
    const Node strided = node("Conv", {{"strides", ints_attribute({2})}, {"pads", ints_attribute({1, 0})}});
    CHECK(run_emulated(fp32, strided, {&x1, &w1, &bias})[0].numbers == std::vector<double>{3.5, 9.5});

    // SAME_UPPER with stride 1 and kernel 2: one pad at the end ([1+2, 2+3, 3+4, 4+5, 5+0]); SAME_LOWER
    // puts it in front ([0+1, 1+2, ...]).
    const Tensor<double> w2 = floats({1, 1, 2}, {1, 1});
    CHECK(run_truth(node("Conv", {{"auto_pad", string_attribute("SAME_UPPER")}}), {&x1, &w2})[0].numbers ==
          std::vector<double>{3, 5, 7, 9, 5});
    CHECK(run_truth(node("Conv", {{"auto_pad", string_attribute("SAME_LOWER")}}), {&x1, &w2})[0].numbers ==
          std::vector<double>{1, 3, 5, 7, 9});
    CHECK(run_truth(node("Conv", {{"auto_pad", string_attribute("VALID")}, {"strides", ints_attribute({3})}}),
                    {&x1, &w2})[0]
              .numbers == std::vector<double>{3, 9});

    const Tensor<double> w_groups = floats({2, 1, 1, 1}, {1, 1});
    CHECK_THROWS_WITH(run_truth(node("Conv", {{"group", int_attribute(2)}}), {&x, &w_groups}),
                      Contains("do not fit together"));
    CHECK_THROWS_WITH(run_truth(node("Conv", {{"auto_pad", string_attribute("SAME")}}), {&x, &w}),
                      Contains("auto_pad 'SAME'"));
}

TEST_CASE("Conv with groups, strides, dilations and asymmetric pads against naive loops") {
    const Conv2d p{2, 4, 7, 6, 6, 3, 2, 2, 2, 1, 1, 2, 1, 0, 2, 1};
    const std::vector<double> xv = random_floats(static_cast<std::size_t>(p.n * p.c * p.h * p.w), 3);
    const std::vector<double> wv = random_floats(static_cast<std::size_t>(p.m * (p.c / p.group) * p.kh * p.kw), 4);
    const std::vector<double> bv = random_floats(static_cast<std::size_t>(p.m), 5);
    const Tensor<double> x = floats({p.n, p.c, p.h, p.w}, xv), w = floats({p.m, p.c / p.group, p.kh, p.kw}, wv);
    const Tensor<double> b = floats({p.m}, bv);
    const std::size_t outputs = static_cast<std::size_t>(p.n * p.m * p.out_h() * p.out_w());

    // The truth: every sum of products exact (MPFR, 1024 bits), then the bias, rounded to double once.
    std::vector<Exact> exact = exact_convolution(p, xv, wv);
    const auto truth = run_truth(p.conv_node(), {&x, &w, &b});
    REQUIRE(truth[0].shape == Shape{p.n, p.m, p.out_h(), p.out_w()});
    for (std::size_t i = 0; i < outputs; ++i) {
        mpfr_add_d(exact[i].v, exact[i].v, bv[(i / static_cast<std::size_t>(p.out_h() * p.out_w())) % 6], MPFR_RNDN);
        CHECK(truth[0].numbers[i] == mpfr_get_d(exact[i].v, MPFR_RNDN));
    }

    // fp32 emulated: each output a sequence of fp32 fmas in im2col order from +0, then + bias in fp32.
    std::vector<float> sums(outputs, 0.0f);
    p.for_each_product([&](std::int64_t o, std::int64_t xi, std::int64_t wi) {
        float& s = sums[static_cast<std::size_t>(o)];
        s = std::fma(static_cast<float>(wv[static_cast<std::size_t>(wi)]),
                     static_cast<float>(xv[static_cast<std::size_t>(xi)]), s);
    });
    const auto emulated = run_emulated(fp32, p.conv_node(), {&x, &w, &b});
    for (std::size_t i = 0; i < outputs; ++i) {
        const float biased =
            sums[i] + static_cast<float>(bv[(i / static_cast<std::size_t>(p.out_h() * p.out_w())) % 6]);
        CHECK(emulated[0].numbers[i] == static_cast<double>(biased));
    }
}

TEST_CASE("Depthwise Conv in plain fp32: the direct kernel gives the bits of im2col and the fp32 GEMM") {
    // The direct kernel applies to the fp32 policy's model; a node whose matrix-product operands
    // are counted takes im2col and gemm with the same arithmetic: the old path beside the new.
    REQUIRE(depthwise_fp32_applies(fp32.matmul));
    const std::vector<Conv2d> convolutions = {
        {1, 6, 9, 8, 6, 3, 3, 6, 2, 1, 1, 2, 1, 2, 0, 1},  // stride (2, 1), dilation (1, 2), asymmetric pads
        {2, 5, 7, 7, 5, 3, 3, 5, 1, 1, 1, 1, 1, 1, 1, 1},  // MobileNet's 3x3, pads 1, 2 images
        {1, 3, 6, 5, 6, 2, 3, 3, 1, 2, 2, 1, 0, 1, 1, 0},  // multiplier 2: 3 channels into 6
        {2, 4, 5, 9, 8, 1, 5, 4, 1, 3, 1, 2, 0, 3, 0, 4},  // 1x5 kernel, stride (1, 3), multiplier 2, wide pads
    };
    std::uint32_t seed = 40;
    for (const Conv2d& p : convolutions) {
        // Doubles of full precision (rounded to fp32 as operands), signed zeros, a subnormal fp32
        // product, a value whose products overflow fp32 sums.
        std::mt19937 random(++seed);
        std::uniform_real_distribution<double> uniform(-2, 2);
        std::vector<double> xv(static_cast<std::size_t>(p.n * p.c * p.h * p.w));
        for (double& v : xv) v = uniform(random);
        xv[0] = -0.0, xv[1] = 0.0, xv[2] = 0x1p-140, xv[3] = 0x1p120;
        std::vector<double> wv(static_cast<std::size_t>(p.m * p.kh * p.kw));
        for (double& v : wv) v = uniform(random);
        wv[1] = -0.0, wv[2] = 0x1p-10, wv[3] = 0x1p20;
        const Tensor<double> x = floats({p.n, p.c, p.h, p.w}, xv), w = floats({p.m, 1, p.kh, p.kw}, wv);
        const auto direct = run_with(EmulatedNumerics(fp32, 1), p.conv_node(), {&x, &w})[0].numbers;
        EmulatedNumerics counted(fp32, 1);
        OperandRange operands;
        counted.count_matmul_operands_into(&operands);
        const auto im2col = run_with(counted, p.conv_node(), {&x, &w})[0].numbers;
        INFO(p.c << " channels, multiplier " << p.m / p.c);
        REQUIRE(direct.size() == im2col.size());
        for (std::size_t i = 0; i < direct.size(); ++i)
            CHECK(std::bit_cast<std::uint64_t>(direct[i]) == std::bit_cast<std::uint64_t>(im2col[i]));
        // And the naive loops' fmas from +0 in the taps' order (the padding skipped: adding 0 changes
        // no sum here, whose weights are finite).
        std::vector<float> sums(direct.size(), 0.0f);
        p.for_each_product([&](std::int64_t o, std::int64_t xi, std::int64_t wi) {
            float& sum = sums[static_cast<std::size_t>(o)];
            sum = std::fma(static_cast<float>(wv[static_cast<std::size_t>(wi)]),
                           static_cast<float>(xv[static_cast<std::size_t>(xi)]), sum);
        });
        for (std::size_t i = 0; i < direct.size(); ++i)
            CHECK(std::bit_cast<std::uint64_t>(direct[i]) ==
                  std::bit_cast<std::uint64_t>(static_cast<double>(sums[i])));
    }
}

TEST_CASE("ConvTranspose: overlapping contributions worked out by hand") {
    // x = [1 2 3], w = [1 1 1], stride 2: input p writes 2p .. 2p + 2 of 2 * (3 - 1) + 3 = 7 outputs:
    // [1, 1, 1+2, 2, 2+3, 3, 3]; pads [1 1] drop the first and the last.
    const Tensor<double> x = floats({1, 1, 3}, {1, 2, 3}), w = floats({1, 1, 3}, {1, 1, 1});
    CHECK(run_truth(node("ConvTranspose", {{"strides", ints_attribute({2})}}), {&x, &w})[0].numbers ==
          std::vector<double>{1, 1, 3, 2, 5, 3, 3});
    const auto padded = run_truth(
        node("ConvTranspose", {{"strides", ints_attribute({2})}, {"pads", ints_attribute({1, 1})}}), {&x, &w});
    CHECK(padded[0].numbers == std::vector<double>{1, 3, 2, 5, 3});
    // output_padding adds a position nothing writes to: 0 + bias.
    const Tensor<double> bias = floats({1}, {0.25});
    const auto extended = run_emulated(
        fp32, node("ConvTranspose", {{"strides", ints_attribute({2})}, {"output_padding", ints_attribute({1})}}),
        {&x, &w, &bias});
    CHECK(extended[0].numbers == std::vector<double>{1.25, 1.25, 3.25, 2.25, 5.25, 3.25, 3.25, 0.25});

    // The overlapping contributions are summed in the accumulate format: [2048 1] with w = [1 1] gives
    // [2048, 1 + 2048, 1]; an fp16 accumulator rounds 2049 to 2048 (ties to even), the truth keeps it.
    const Tensor<double> big = floats({1, 1, 2}, {2048, 1}), ones = floats({1, 1, 2}, {1, 1});
    CHECK(run_truth(node("ConvTranspose"), {&big, &ones})[0].numbers == std::vector<double>{2048, 2049, 1});
    CHECK(run_emulated(formats("fp32", "fp16"), node("ConvTranspose"), {&big, &ones})[0].numbers ==
          std::vector<double>{2048, 2048, 1});
}

TEST_CASE("ConvTranspose with groups, strides, dilations, pads and output_padding against a naive loop") {
    // 2-D; x (1, 4, 3, 4), w (4, 3 per group, 2, 3), group 2 -> 6 output channels.
    const std::int64_t c = 4, h = 3, wd = 4, mg = 3, kh = 2, kw = 3, group = 2, sh = 2, sw = 1, dh = 1, dw = 2;
    const std::int64_t pt = 1, pl = 0, pb = 0, pr = 2, oph = 1, opw = 0;
    const std::int64_t oh = sh * (h - 1) + oph + (kh - 1) * dh + 1 - pt - pb;  // 2*2 + 1 + 2 - 1 = 6
    const std::int64_t ow = sw * (wd - 1) + opw + (kw - 1) * dw + 1 - pl - pr;  // 3 + 5 - 2 = 6
    const std::vector<double> xv = random_integers(static_cast<std::size_t>(c * h * wd), 6);
    const std::vector<double> wv = random_integers(static_cast<std::size_t>(c * mg * kh * kw), 7);
    const Tensor<double> x = floats({1, c, h, wd}, xv), w = floats({c, mg, kh, kw}, wv);
    const Node n = node("ConvTranspose", {{"group", int_attribute(group)},
                                          {"strides", ints_attribute({sh, sw})},
                                          {"dilations", ints_attribute({dh, dw})},
                                          {"pads", ints_attribute({pt, pl, pb, pr})},
                                          {"output_padding", ints_attribute({oph, opw})}});
    // Scatter: input (ci, y, x) through tap (i, j) adds x * w to output (m, y*sh - pt + i*dh, x*sw - pl + j*dw).
    std::vector<double> expected(static_cast<std::size_t>(group * mg * oh * ow), 0.0);
    const std::int64_t cg = c / group;
    for (std::int64_t ci = 0; ci < c; ++ci)
        for (std::int64_t m = 0; m < mg; ++m)
            for (std::int64_t y = 0; y < h; ++y)
                for (std::int64_t xx = 0; xx < wd; ++xx)
                    for (std::int64_t i = 0; i < kh; ++i)
                        for (std::int64_t j = 0; j < kw; ++j) {
                            const std::int64_t oy = y * sh - pt + i * dh, ox = xx * sw - pl + j * dw;
                            if (oy < 0 || oy >= oh || ox < 0 || ox >= ow) continue;
                            const std::int64_t out_channel = (ci / cg) * mg + m;
                            expected[static_cast<std::size_t>((out_channel * oh + oy) * ow + ox)] +=
                                xv[static_cast<std::size_t>((ci * h + y) * wd + xx)] *
                                wv[static_cast<std::size_t>(((ci * mg + m) * kh + i) * kw + j)];
                        }
    const auto truth = run_truth(n, {&x, &w});
    CHECK(truth[0].shape == Shape{1, group * mg, oh, ow});
    CHECK(truth[0].numbers == expected);
    CHECK(run_emulated(fp32, n, {&x, &w})[0].numbers == expected);  // small integers: exact in fp32 too
}

TEST_CASE("MaxPool: windows, ceil_mode, pads, Indices and NaN") {
    // 4x4 = 0..15 with 2x2 windows, stride 2: the bottom right of each: 5, 7, 13, 15.
    std::vector<double> v(16);
    for (int i = 0; i < 16; ++i) v[static_cast<std::size_t>(i)] = i;
    const Tensor<double> x = floats({1, 1, 4, 4}, v);
    const Node pool =
        node("MaxPool", {{"kernel_shape", ints_attribute({2, 2})}, {"strides", ints_attribute({2, 2})}}, 2);
    const auto out = run_truth(pool, {&x});
    CHECK(out[0].numbers == std::vector<double>{5, 7, 13, 15});
    CHECK(out[1].integers == std::vector<std::int64_t>{5, 7, 13, 15});
    // storage_order 1 counts the spatial axes column-major: (h, w) -> h + 4 w.
    Node column_major = pool;
    column_major.attributes["storage_order"] = int_attribute(1);
    CHECK(run_truth(column_major, {&x})[1].integers == std::vector<std::int64_t>{1 + 4, 1 + 12, 3 + 4, 3 + 12});

    // 3x3 windows, stride 2 on 4 columns: floor((4 - 3) / 2) + 1 = 1; ceil_mode: 2, the last window
    // covering columns 2, 3 (and one past).
    const Node ceil_pool = node("MaxPool", {{"kernel_shape", ints_attribute({3, 3})},
                                            {"strides", ints_attribute({2, 2})},
                                            {"ceil_mode", int_attribute(1)}});
    const auto ceiled = run_truth(ceil_pool, {&x});
    CHECK(ceiled[0].shape == Shape{1, 1, 2, 2});
    CHECK(ceiled[0].numbers == std::vector<double>{10, 11, 14, 15});

    // 1-D, pads [1 1], kernel 2: padding is not a value ([-1 -5 -3] -> max(-1), max(-1, -5), max(-5, -3), max(-3)).
    const Tensor<double> negative = floats({1, 1, 3}, {-1, -5, -3});
    CHECK(run_truth(node("MaxPool", {{"kernel_shape", ints_attribute({2})}, {"pads", ints_attribute({1, 1})}}),
                    {&negative})[0]
              .numbers == std::vector<double>{-1, -1, -3, -3});
    const Tensor<double> with_nan = floats({1, 1, 3}, {1, std::nan(""), 0});
    const auto nan_out = run_emulated(fp32, node("MaxPool", {{"kernel_shape", ints_attribute({2})}}), {&with_nan});
    CHECK(std::isnan(nan_out[0].numbers[0]));
    CHECK(std::isnan(nan_out[0].numbers[1]));
    CHECK_THROWS_WITH(run_truth(node("MaxPool"), {&x}), Contains("kernel_shape is required"));
}

TEST_CASE("AveragePool with and without count_include_pad, and the global pools") {
    // [1 2 3 4], kernel 3, pads [1 1]: windows [pad 1 2], [1 2 3], [2 3 4], [3 4 pad].
    const Tensor<double> x = floats({1, 1, 4}, {1, 2, 3, 4});
    const auto excluded =
        run_truth(node("AveragePool", {{"kernel_shape", ints_attribute({3})}, {"pads", ints_attribute({1, 1})}}), {&x});
    CHECK(excluded[0].numbers == std::vector<double>{1.5, 2, 3, 3.5});  // 3/2, 6/3, 9/3, 7/2
    const auto included = run_truth(node("AveragePool", {{"kernel_shape", ints_attribute({3})},
                                                         {"pads", ints_attribute({1, 1})},
                                                         {"count_include_pad", int_attribute(1)}}),
                                    {&x});
    CHECK(included[0].numbers == std::vector<double>{1, 2, 3, 7.0 / 3});  // 3/3, 6/3, 9/3, 7/3
    // The truth divides exactly: 7/3 to double; an emulated fp32 run rounds 7/3 to fp32.
    const auto emulated = run_emulated(fp32,
                                       node("AveragePool", {{"kernel_shape", ints_attribute({3})},
                                                            {"pads", ints_attribute({1, 1})},
                                                            {"count_include_pad", int_attribute(1)}}),
                                       {&x});
    CHECK(emulated[0].numbers[3] == static_cast<double>(7.0f / 3.0f));

    // AveragePool-19's dilations: kernel 2 dilated by 2 over [1 2 3 4 5] reads [1 3], [2 4], [3 5].
    const Tensor<double> five = floats({1, 1, 5}, {1, 2, 3, 4, 5});
    const Node dilated =
        node("AveragePool", {{"kernel_shape", ints_attribute({2})}, {"dilations", ints_attribute({2})}});
    CHECK(run_truth(dilated, {&five}, 19)[0].numbers == std::vector<double>{2, 3, 4});
    CHECK_THROWS_WITH(run_truth(dilated, {&five}, 18), Catch::Contains("attribute dilations is AveragePool-19's"));

    // ceil_mode's last window [3, past the input] counts 1 position even with count_include_pad:
    // only the padding the pads add is counted ([1 2] -> 1.5, [3] -> 3).
    const Tensor<double> three = floats({1, 1, 3}, {1, 2, 3});
    CHECK(run_truth(node("AveragePool", {{"kernel_shape", ints_attribute({2})},
                                         {"strides", ints_attribute({2})},
                                         {"ceil_mode", int_attribute(1)},
                                         {"count_include_pad", int_attribute(1)}}),
                    {&three})[0]
              .numbers == std::vector<double>{1.5, 3});

    const Tensor<double> planes = floats({1, 2, 2, 2}, {1, 2, 3, 6, -1, -2, -3, -4});
    const auto average = run_truth(node("GlobalAveragePool"), {&planes});
    CHECK(average[0].shape == Shape{1, 2, 1, 1});
    CHECK(average[0].numbers == std::vector<double>{3, -2.5});
    CHECK(run_truth(node("GlobalMaxPool"), {&planes})[0].numbers == std::vector<double>{6, -1});
}

TEST_CASE("The truth's depthwise and grouped Conv on 1, 2 and 3 threads: each sum of products exact, rounded once") {
    // Sixteen (image, group) products of a depthwise convolution with a channel multiplier of 2, and
    // four of a grouped one: the truth shares them among its threads and must put each in its place.
    for (const Conv2d& p : {Conv2d{2, 8, 5, 6, 16, 3, 3, 8, 1, 2, 1, 1, 1, 1, 1, 0},
                            Conv2d{2, 6, 4, 5, 4, 2, 3, 2, 1, 1, 2, 1, 0, 1, 1, 1}}) {
        const std::vector<double> xv = random_floats(static_cast<std::size_t>(p.n * p.c * p.h * p.w), 11);
        const std::vector<double> wv =
            random_floats(static_cast<std::size_t>(p.m * (p.c / p.group) * p.kh * p.kw), 12);
        const Tensor<double> x = floats({p.n, p.c, p.h, p.w}, xv), w = floats({p.m, p.c / p.group, p.kh, p.kw}, wv);
        const std::size_t outputs = static_cast<std::size_t>(p.n * p.m * p.out_h() * p.out_w());
        const std::vector<Exact> exact = exact_convolution(p, xv, wv);
        for (int threads : {1, 2, 3}) {
            const TruthThreadsScope scope(threads);
            const auto truth = run_truth(p.conv_node(), {&x, &w});
            REQUIRE(truth[0].numbers.size() == outputs);
            for (std::size_t i = 0; i < outputs; ++i) {
                INFO("threads " << threads << ", output " << i);
                CHECK(truth[0].numbers[i] == mpfr_get_d(exact[i].v, MPFR_RNDN));
            }
        }
    }
}

TEST_CASE("The truth's MatMul and Gemm read initializers and graph inputs as doubles: each entry exact, rounded once") {
    // The evaluator leaves MatMul's and Gemm's operands in the model's doubles where they are
    // initializers, and (evaluate_graph_from_doubles) graph inputs: a batched B broadcast against A, a
    // 1-D B, Gemm's transposed B with alpha, beta and C, an input by a value the graph computed, and
    // Gemm's transposed A. Y is read as doubles by Gemm and converted for Relu.
    Graph graph;
    graph.opset = 17;
    for (const auto& [name, shape] :
         {std::pair{"X", Shape{2, 1, 3, 4}}, std::pair{"A", Shape{3, 4}}, std::pair{"Y", Shape{4, 3}}}) {
        ValueInfo input;
        input.name = name;
        input.shape = shape;
        graph.inputs.push_back(input);
    }
    graph.initializers["W"] = floats({3, 4, 6}, random_floats(72, 21));
    graph.initializers["V"] = floats({4}, random_floats(4, 22));
    graph.initializers["G"] = floats({6, 4}, random_floats(24, 23));
    graph.initializers["C"] = floats({6}, random_floats(6, 24));
    graph.nodes.push_back({"batched", "MatMul", "", {"X", "W"}, {"P"}, {}});
    graph.nodes.push_back({"by_vector", "MatMul", "", {"X", "V"}, {"Q"}, {}});
    Node gemm{"gemm", "Gemm", "", {"A", "G", "C"}, {"R"}, {}};
    gemm.attributes["transB"].kind = Attribute::Kind::Int;
    gemm.attributes["transB"].i = 1;
    gemm.attributes["alpha"].kind = gemm.attributes["beta"].kind = Attribute::Kind::Float;
    gemm.attributes["alpha"].f = 0.75;
    gemm.attributes["beta"].f = -2;
    graph.nodes.push_back(gemm);
    graph.nodes.push_back({"relu", "Relu", "", {"Y"}, {"S"}, {}});
    graph.nodes.push_back({"by_values", "MatMul", "", {"A", "S"}, {"U"}, {}});
    Node transposed{"transposed", "Gemm", "", {"Y", "G"}, {"T"}, {}};
    transposed.attributes["transA"].kind = transposed.attributes["transB"].kind = Attribute::Kind::Int;
    transposed.attributes["transA"].i = transposed.attributes["transB"].i = 1;
    graph.nodes.push_back(transposed);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) graph.nodes[i].id = i;
    for (const char* name : {"P", "Q", "R", "U", "T"}) {
        ValueInfo output;
        output.name = name;
        graph.outputs.push_back(output);
    }
    // Full doubles 2^-100 ... 2^100 apart: sums of products that 256 bits cannot hold, so rounding matters.
    const auto spread = [](std::size_t count, std::uint32_t seed) {
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> significand(-1, 1);
        std::uniform_int_distribution<int> exponent(-100, 100);
        std::vector<double> values(count);
        for (double& v : values) v = std::ldexp(significand(random), exponent(random));
        return values;
    };
    const std::vector<double> xv = spread(24, 25), av = spread(12, 26), yv = spread(12, 27);

    // Each entry's exact sum of products (1024 bits), rounded once to the truth's 256 bits; Gemm's
    // alpha and beta C then each rounded to 256 bits, as the operator's definition does.
    const auto entry = [](const std::vector<std::pair<double, double>>& products) {
        Exact sum;
        for (const auto& [x, y] : products) {
            Exact product;
            mpfr_set_d(product.v, x, MPFR_RNDN);
            mpfr_mul_d(product.v, product.v, y, MPFR_RNDN);
            mpfr_add(sum.v, sum.v, product.v, MPFR_RNDN);
        }
        TruthNumber r = truth_number(256);
        mpfr_set(r.backend().data(), sum.v, MPFR_RNDN);
        return r;
    };
    const Tensor<double> &w = graph.initializers["W"], &v = graph.initializers["V"], &g = graph.initializers["G"],
                         &c = graph.initializers["C"];
    std::vector<TruthNumber> p, q, r;
    for (int batch = 0; batch < 2; ++batch)
        for (int wb = 0; wb < 3; ++wb)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 6; ++j) {
                    std::vector<std::pair<double, double>> products;
                    for (int l = 0; l < 4; ++l) products.push_back({xv[batch * 12 + i * 4 + l], w.numbers[wb * 24 + l * 6 + j]});
                    p.push_back(entry(products));
                }
    for (int row = 0; row < 6; ++row) {
        std::vector<std::pair<double, double>> products;
        for (int l = 0; l < 4; ++l) products.push_back({xv[row * 4 + l], v.numbers[l]});
        q.push_back(entry(products));
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 6; ++j) {
            std::vector<std::pair<double, double>> products;
            for (int l = 0; l < 4; ++l) products.push_back({av[i * 4 + l], g.numbers[j * 4 + l]});
            TruthNumber y = entry(products), beta_c = truth_number(256);
            mpfr_mul_d(y.backend().data(), y.backend().data(), 0.75, MPFR_RNDN);
            mpfr_set_d(beta_c.backend().data(), c.numbers[j], MPFR_RNDN);
            mpfr_mul_d(beta_c.backend().data(), beta_c.backend().data(), -2, MPFR_RNDN);
            mpfr_add(y.backend().data(), y.backend().data(), beta_c.backend().data(), MPFR_RNDN);
            r.push_back(y);
        }
    std::vector<TruthNumber> u, t;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            std::vector<std::pair<double, double>> products;
            for (int l = 0; l < 4; ++l) products.push_back({av[i * 4 + l], std::max(0.0, yv[l * 3 + j])});
            u.push_back(entry(products));
        }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 6; ++j) {
            std::vector<std::pair<double, double>> products;
            for (int l = 0; l < 4; ++l) products.push_back({yv[l * 3 + i], g.numbers[j * 4 + l]});
            t.push_back(entry(products));
        }

    const TruthPrecisionScope precision(256);
    const TruthNumerics truth(256);
    for (int threads : {1, 2}) {
        const TruthThreadsScope scope(threads);
        std::vector<Tensor<double>> inputs;
        for (const auto& [shape, values] :
             {std::pair{Shape{2, 1, 3, 4}, xv}, std::pair{Shape{3, 4}, av}, std::pair{Shape{4, 3}, yv}})
            inputs.push_back(floats(shape, values));
        // The inputs converted to MPFR first, and left in doubles: the same numbers.
        std::vector<Tensor<TruthNumber>> converted;
        for (const Tensor<double>& input : inputs)
            converted.push_back(convert_numbers<TruthNumber>(input, [&](double x) { return truth.from_double(x); }));
        const auto numerics_for = [&](std::size_t) { return truth; };
        for (const bool in_doubles : {false, true}) {
            const Values<TruthNumber> out =
                in_doubles
                    ? evaluate_graph_from_doubles(graph, graph.initializers, inputs, numerics_for, {}, nullptr)
                    : evaluate_graph<TruthNumerics>(graph, graph.initializers, converted, numerics_for, {}, nullptr);
            for (const auto& [name, expected, shape] :
                 {std::tuple{"P", &p, Shape{2, 3, 3, 6}}, std::tuple{"Q", &q, Shape{2, 1, 3}},
                  std::tuple{"R", &r, Shape{3, 6}}, std::tuple{"U", &u, Shape{3, 3}},
                  std::tuple{"T", &t, Shape{3, 6}}}) {
                const Tensor<TruthNumber>& made = out.at(name);
                REQUIRE(made.shape == shape);
                REQUIRE(made.numbers.size() == expected->size());
                for (std::size_t i = 0; i < made.numbers.size(); ++i) {
                    INFO("threads " << threads << ", inputs in doubles " << in_doubles << ", " << name << "[" << i
                                    << "]");
                    CHECK(mpfr_equal_p(made.numbers[i].backend().data(), (*expected)[i].backend().data()) != 0);
                }
            }
        }
    }
}
