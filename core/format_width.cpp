// The one guard between the narrow machinery and formats wider than binary64.
#include "core/format_width.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::core {

bool is_wider_than_binary64(const FormatSpec& spec) {
    return spec.kind == FormatKind::Binary && (spec.exponent_bits > 11 || spec.mantissa_bits > 52);
}

void require_within_binary64(const FormatSpec& spec) {
    if (!is_wider_than_binary64(spec)) return;
    throw Error(
        fmt::format("format '{}' is wider than binary64: show, encode, decode, convert and eval handle it "
                    "through MPFR; of the workloads, sum (storage and accumulator), gemm, mlp-forward, fpcore and onnx "
                    "(every role) and iterative-refinement (the working precision and the residual: the storage and "
                    "accumulate roles) take wide formats, and the GUI lab shows them; "
                    "everything else (other roles and workloads, quantization, testfloat) needs a "
                    "format within binary64 (at most 11 exponent and 52 mantissa bits; README, 'Which formats "
                    "each command takes')",
                    spec.name));
}

}  // namespace floatscope::core
