// Precision and rounding names of FPCore's metadata standard (fpbench.org/spec/metadata-2.0).
#include "emulation/fpcore/context.hpp"

#include "core/catalog.hpp"
#include "core/error.hpp"

namespace floatscope::emu::fpcore {

namespace {

constexpr const char* valid_precisions =
    "binary16, binary32, binary64, binary80, binary128, bfloat16, integer, real, (float E N)";

/// An IEEE-style format of E exponent bits and N bits in all (sign included).
Precision float_precision(std::string name, int exponent_bits, int total_bits) {
    Precision p;
    p.kind = PrecisionKind::Float;
    p.name = std::move(name);
    const int mantissa_bits = total_bits - exponent_bits - 1;
    p.emulable = exponent_bits >= 2 && exponent_bits <= 11 && mantissa_bits >= 1 && mantissa_bits <= 52;
    if (p.emulable) {
        // The catalog's names for the standard ones, so that reports say fp32 rather than e8m23.
        const std::string catalog_name = exponent_bits == 11 && mantissa_bits == 52  ? "fp64"
                                         : exponent_bits == 8 && mantissa_bits == 23 ? "fp32"
                                         : exponent_bits == 5 && mantissa_bits == 10 ? "fp16"
                                         : exponent_bits == 8 && mantissa_bits == 7
                                             ? "bf16"
                                             : std::string("e")
                                                   .append(std::to_string(exponent_bits))
                                                   .append("m")
                                                   .append(std::to_string(mantissa_bits));
        p.format = core::parse_format(catalog_name);
    }
    return p;
}

}  // namespace

Precision parse_precision(const Datum& value) {
    if (value.kind == Datum::Kind::Symbol) {
        const std::string& n = value.text;
        if (n == "binary16") return float_precision(n, 5, 16);
        if (n == "binary32") return float_precision(n, 8, 32);
        if (n == "binary64") return float_precision(n, 11, 64);
        if (n == "binary80") return float_precision(n, 15, 80);
        if (n == "binary128") return float_precision(n, 15, 128);
        if (n == "bfloat16") return float_precision(n, 8, 16);
        if (n == "integer") return Precision{PrecisionKind::Integer, n, {}, true};
        if (n == "real") return Precision{PrecisionKind::Real, n, {}, true};
    }
    if (value.kind == Datum::Kind::List && value.items.size() == 3 && value.items[0].is_symbol("float") &&
        value.items[1].kind == Datum::Kind::Number && value.items[2].kind == Datum::Kind::Number) {
        const std::string& e = value.items[1].text;
        const std::string& n = value.items[2].text;
        if (e.find_first_not_of("0123456789") == std::string::npos &&
            n.find_first_not_of("0123456789") == std::string::npos && e.size() < 4 && n.size() < 5) {
            const int exponent_bits = std::stoi(e), total_bits = std::stoi(n);
            if (exponent_bits >= 1 && total_bits > exponent_bits + 1)
                return float_precision(print_datum(value), exponent_bits, total_bits);
        }
        fail_at(value.location, "bad precision " + print_datum(value) + " (float E N needs integers with N > E + 1)");
    }
    fail_at(value.location, "unknown precision " + print_datum(value) + "; valid: " + valid_precisions);
}

core::RoundingMode parse_round(const Datum& value) {
    if (value.kind == Datum::Kind::Symbol) {
        const std::string& n = value.text;
        if (n == "nearestEven") return core::RoundingMode::NearestEven;
        if (n == "nearestAway") return core::RoundingMode::NearestAway;
        if (n == "toPositive") return core::RoundingMode::Upward;
        if (n == "toNegative") return core::RoundingMode::Downward;
        if (n == "toZero") return core::RoundingMode::TowardZero;
    }
    fail_at(value.location, "unknown rounding " + print_datum(value) +
                                "; valid: nearestEven, nearestAway, toPositive, toNegative, toZero");
}

OverrideMode parse_override_mode(std::string_view name) {
    if (name == "all") return OverrideMode::All;
    if (name == "top") return OverrideMode::Top;
    if (name == "bang") return OverrideMode::Bang;
    throw Error("unknown override mode '" + std::string(name) + "'; valid: all, top, bang");
}

const char* to_string(OverrideMode mode) {
    switch (mode) {
        case OverrideMode::All: return "all";
        case OverrideMode::Top: return "top";
        case OverrideMode::Bang: return "bang";
    }
    return "?";
}

}  // namespace floatscope::emu::fpcore
