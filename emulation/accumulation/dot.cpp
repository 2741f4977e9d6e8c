// Sums and dot products: quantize the operands, accumulate term by term, round the result to the output.
#include "emulation/accumulation/dot.hpp"

#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"
#include "emulation/accumulation/gemm.hpp"
#include "emulation/accumulation/kernels/float_environment.hpp"
#include "emulation/accumulation/operand_scaling.hpp"
#include "emulation/accumulation/scalar_accumulator.hpp"

namespace floatscope::emu {

namespace {

std::vector<double> quantized(const OperandQuantization& q, std::span<const double> values) {
    std::vector<double> out(values.size());
    quantize(q, values, out);
    return out;
}

double finish(const AccumulationModel& model, double scale, double value) {
    finish_results(model, scale, std::span<double>(&value, 1));
    return value;
}

}  // namespace

// A sequential sum carries one dependency from term to term, so these stay scalar; the operand
// quantization before them is the vectorized array rounding of core.

double dot(const AccumulationModel& model, std::span<const double> x, std::span<const double> y, double c) {
    validate(model);
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // see float_environment.hpp
    if (x.size() != y.size())
        throw Error(fmt::format("dot: the vectors have different lengths ({} and {})", x.size(), y.size()));
    if (is_binary128_rne(model.accumulator)) {
        double r = 0;
        const double addend[] = {c};
        gemm(model, x, y, std::span<double>(&r, 1), 1, x.size(), 1,
             c != 0 ? std::span<const double>(addend) : std::span<const double>());
        return r;
    }
    const std::vector<double> qx = quantized(model.x, x);
    const std::vector<double> qy = quantized(model.y, y);
    const double r = ScalarAccumulator(model).accumulate(qx.data(), 1, qy.data(), 1, qx.size(), c);
    return finish(model, model.x.scale * model.y.scale, r);
}

double sum(const AccumulationModel& model, std::span<const double> x) {
    validate(model);
    [[maybe_unused]] const detail::DefaultFloatEnvironment environment;  // see float_environment.hpp
    if (is_binary128_rne(model.accumulator)) return finish(model, 1, binary128_sum(model, quantized(model.x, x)));
    const std::vector<double> qx = quantized(model.x, x);
    const double one = 1;
    const double r = ScalarAccumulator(model).accumulate(qx.data(), 1, &one, 0, qx.size());
    return finish(model, model.x.scale, r);
}

}  // namespace floatscope::emu
