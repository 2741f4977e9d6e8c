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
                    "through MPFR; of the workloads' roles sum's storage and accumulator, mlp-forward's roles, gemm's "
                    "accumulator and output (binary128 with rne) and iterative-refinement's working precision and "
                    "residual (the storage and accumulate roles) take wide formats; "
                    "everything else (other roles and workloads, quantization, the GUI lab, testfloat) needs a "
                    "format within binary64 (at most 11 exponent and 52 mantissa bits; README, 'Which formats "
                    "each command takes')",
                    spec.name));
}

}  // namespace floatscope::core
