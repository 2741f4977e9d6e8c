// ONNX operators that convert or pass values on: Cast, CastLike, Identity, Dropout (inference, or
// training with ratio 0).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/workloads/onnx/operators/elementwise_families.hpp"
#include "emulation/workloads/onnx/operators/elementwise_support.hpp"
#include "emulation/workloads/onnx/operators/input_checks.hpp"
#include "emulation/workloads/onnx/unsupported.hpp"

namespace floatscope::emu::onnx {

namespace {

/// `i` rounded to a double to odd (truncated, the last bit set when inexact): the one later
/// rounding to a format of at most 51 significant bits then gives the exact integer's rounding,
/// where the double nearest to an int64 beyond 2^53 would round twice.
double round_to_odd(std::int64_t i) {
    const double nearest = static_cast<double>(i);
    const __int128 exact = i, rounded = static_cast<__int128>(nearest);
    if (rounded == exact) return nearest;
    const bool rounded_away = i > 0 ? rounded > exact : rounded < exact;
    double truncated = rounded_away ? std::nextafter(nearest, 0.0) : nearest;
    if ((std::bit_cast<std::uint64_t>(truncated) & 1) == 0)
        truncated = std::nextafter(truncated, i > 0 ? HUGE_VAL : -HUGE_VAL);
    return truncated;
}

/// An integer converted to a floating type, rounded once to nearest even (`saturate`: Cast-19's,
/// for the float8 types).
template <class Numerics>
typename Numerics::Number integer_to_floating(const Numerics& n, std::int64_t i, ElementType to, bool saturate) {
    if (to == ElementType::Double) return n.from_double(static_cast<double>(i));
    return n.cast(n.from_double(round_to_odd(i)), to, saturate);
}

/// x converted to `to`: between floating types numerics' cast (rounded to nearest even, in both
/// evaluations, since the model asks for it; to the float8 types as the node's saturate says,
/// Cast-19's attribute; to Cast-23's float4e2m1 always saturated); to bool nonzero (NaN too) is
/// true; between integer types wrapped as numpy's astype.
template <class Numerics>
Tensor<typename Numerics::Number> cast(const Tensor<typename Numerics::Number>& x, ElementType to, const Numerics& n,
                                       const Node& node) {
    // float8e8m0 is Cast-24's, past the opsets FloatScope evaluates; Cast-21's int4 and uint4 are not
    // evaluated (how a value outside their range converts is not settled between ONNX's reference
    // and onnxruntime).
    if (to == ElementType::Float8E8M0 || to == ElementType::Int4 || to == ElementType::UInt4)
        throw Unsupported(
            fmt::format("{}: a cast to {} (FloatScope casts to the float8 types of Cast-19 and float4e2m1 of "
                        "Cast-23, not to Cast-21's int4 and uint4 nor to Cast-24's float8e8m0)",
                        node.describe(), to_string(to)));
    const bool saturate = node.int_attribute("saturate", 1) != 0;
    const auto zero = n.from_double(0);
    if (x.floating()) {
        if (is_floating(to)) {
            auto r = map_numbers(x, [&](const auto& v) { return n.cast(v, to, saturate); });
            r.type = to;
            return r;
        }
        Tensor<typename Numerics::Number> r;
        r.type = to;
        r.shape = x.shape;
        for (const auto& v : x.numbers)
            r.integers.push_back(to == ElementType::Bool ? std::int64_t{!n.equal(v, zero)}
                                                         : truncate_to_integer(n, v, to));
        return r;
    }
    if (!is_floating(to))
        return map_integers(x, to, [&](std::int64_t v) { return wrap_integer(static_cast<std::uint64_t>(v), to); });
    Tensor<typename Numerics::Number> r;
    r.type = to;
    r.shape = x.shape;
    for (std::int64_t v : x.integers) r.numbers.push_back(integer_to_floating(n, v, to, saturate));
    return r;
}

/// Dropout at inference, or in training with ratio 0 (input 1): the input unchanged and, when the
/// node asks for it, a mask of all true. Training with a ratio above 0 drops values at random: its
/// outputs depend on the generator (ONNX's reference draws from NumPy's), so it is refused.
template <class Call>
TensorsOf<Call> dropout(const Call& call) {
    call.node.check_attributes({"seed"});
    const auto& x = call.input(0);
    if (const auto* training = call.optional_input(2)) {
        require_type(*training, ElementType::Bool, 2, call.node);
        const auto* ratio = call.optional_input(1);
        const auto& n = call.numerics;
        // ratio's default is 0.5.
        const bool keeps_all =
            ratio && ratio->floating() && ratio->numbers.size() == 1 && n.equal(ratio->numbers[0], n.from_double(0));
        for (std::int64_t t : training->integers)
            if (t != 0 && !keeps_all)
                throw Unsupported(
                    fmt::format("{}: training_mode is true and ratio is not 0: the values dropped depend on a random "
                                "generator; FloatScope evaluates Dropout for inference (training_mode false or "
                                "omitted) and in training with ratio 0",
                                call.node.describe()));
    }
    TensorsOf<Call> outputs{x};
    if (call.node.outputs.size() > 1)
        outputs.push_back(integer_tensor<NumberOf<Call>>(ElementType::Bool, x.shape,
                                                         std::vector<std::int64_t>(element_count(x.shape), 1)));
    return outputs;
}

}  // namespace

void add_cast_operators(OperatorTable& table) {
    table.add("Cast", [](const auto& call) {
        call.node.check_attributes({"saturate", "to"});
        if (!call.node.has("to")) throw Error(fmt::format("{}: attribute to is required", call.node.describe()));
        const ElementType to = element_type_from_onnx(static_cast<int>(call.node.int_attribute("to", 0)),
                                                      fmt::format("{}: attribute to", call.node.describe()));
        return TensorsOf<decltype(call)>{cast(call.input(0), to, call.numerics, call.node)};
    });
    table.add("CastLike", [](const auto& call) {
        call.node.check_attributes({"saturate"});
        return TensorsOf<decltype(call)>{cast(call.input(0), call.input(1).type, call.numerics, call.node)};
    });
    // Identity-14 and 16 pass sequences and optionals too.
    table.add(
        "Identity",
        [](const auto& call) {
            call.node.check_attributes({});
            return TensorsOf<decltype(call)>{call.input(0)};
        },
        Reads::AnyValues);
    table.add("Dropout", [](const auto& call) { return dropout(call); });
}

}  // namespace floatscope::emu::onnx
