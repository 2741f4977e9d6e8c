// Quantization and output scaling: one exact operation and its error term, folded by round-to-odd,
// then one core rounding of the whole array.
#include "emulation/accumulation/operand_scaling.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/round_array.hpp"
#include "emulation/arithmetic/round_to_odd.hpp"

namespace floatscope::emu {

void quantize(const OperandQuantization& q, std::span<const double> in, std::span<double> out) {
    if (in.size() != out.size()) throw Error("quantize: input and output sizes differ");
    if (q.scale != 1) {
        // x / scale = quotient + remainder / scale, the remainder exact by fma; only its sign matters.
        const double scale = q.scale;
        for (std::size_t i = 0; i < in.size(); ++i) {
            const double quotient = in[i] / scale;
            out[i] = round_to_odd(quotient, std::fma(-quotient, scale, in[i]));
        }
        in = out;
    }
    core::round_array(q.rounding.format, q.rounding.mode, in, out);
}

void scale_to_output(const core::FormatRounding& output, double scale, std::span<double> values) {
    if (scale != 1) {
        for (double& v : values) {
            const double product = v * scale;
            v = round_to_odd(product, std::fma(v, scale, -product));  // TwoProd: the error is exact
        }
    }
    core::round_array(output.format, output.mode, std::span<const double>(values), values);
}

void finish_results(const AccumulationModel& model, double scale, std::span<double> values) {
    scale_to_output(model.output, scale, values);
    if (model.epilogue)
        core::round_array(model.epilogue->format, model.epilogue->mode, std::span<const double>(values), values);
}

}  // namespace floatscope::emu
