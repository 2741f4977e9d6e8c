// The named block-scaled formats and the parser of their names.
#include "emulation/quantize/block_format.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/catalog.hpp"
#include "core/error.hpp"
#include "emulation/quantize/nf4.hpp"

namespace floatscope::emu {

namespace {

core::FormatSpec saturating(core::FormatSpec spec) {
    spec.overflow = core::OverflowPolicy::Saturate;
    return spec;
}

BlockFormat mx(std::string name, const char* element, std::string description) {
    BlockFormat f;
    f.name = std::move(name);
    f.family = BlockFamily::Mx;
    // OCP MX v1.0 section 6.3: normal values beyond the element's max are clamped to it.
    f.element = saturating(core::parse_format(element));
    f.scale = core::parse_format("e8m0");
    f.block_size = 32;
    f.description = std::move(description);
    return f;
}

core::FormatSpec bnb_fp4_element() {
    core::FormatSpec spec;
    spec.name = "bnb_fp4";
    spec.kind = core::FormatKind::Lookup;
    spec.has_infinity = false;
    spec.nan_encoding = core::NanEncoding::None;
    // Indexed by code (sign-magnitude, zero twice), not ascending: a code table for the absmax
    // quantizer, not a Lookup format for core::Rounder.
    const auto& values = bnb_fp4_code_values();
    spec.code_values.assign(values.begin(), values.end());
    spec.description = "bitsandbytes FP4: sign bit + magnitudes {0, 0.0625, 8, 12, 4, 6, 2, 3}/12";
    return spec;
}

BlockFormat absmax(std::string name, core::FormatSpec element, std::string description) {
    BlockFormat f;
    f.name = std::move(name);
    f.family = BlockFamily::Absmax;
    f.element = std::move(element);
    f.scale = core::parse_format("fp32");
    f.block_size = 64;  // bitsandbytes' default blocksize for quantize_4bit
    f.description = std::move(description);
    return f;
}

std::vector<BlockFormat> build_block_formats() {
    BlockFormat nvfp4;
    nvfp4.name = "nvfp4";
    nvfp4.family = BlockFamily::Nvfp4;
    nvfp4.element = core::parse_format("fp4_e2m1");
    nvfp4.scale = saturating(core::parse_format("fp8_e4m3"));
    nvfp4.block_size = 16;
    nvfp4.description = "NVIDIA NVFP4: E2M1, blocks of 16 with an E4M3 scale, FP32 tensor scale";

    BlockFormat mxint8 = mx("mxint8", "int8", "OCP MXINT8: 8-bit 1.6 fixed point, blocks of 32, E8M0 scale");
    return {
        mx("mxfp8_e4m3", "fp8_e4m3", "OCP MXFP8 E4M3: blocks of 32, E8M0 scale"),
        mx("mxfp8_e5m2", "fp8_e5m2", "OCP MXFP8 E5M2: blocks of 32, E8M0 scale"),
        mx("mxfp6_e2m3", "fp6_e2m3", "OCP MXFP6 E2M3: blocks of 32, E8M0 scale"),
        mx("mxfp6_e3m2", "fp6_e3m2", "OCP MXFP6 E3M2: blocks of 32, E8M0 scale"),
        mx("mxfp4", "fp4_e2m1", "OCP MXFP4 E2M1: blocks of 32, E8M0 scale"),
        mxint8,
        nvfp4,
        absmax("nf4", core::parse_format("nf4"), "QLoRA NF4 (bitsandbytes): blocks of 64, FP32 absmax"),
        absmax("bnb_fp4", bnb_fp4_element(), "bitsandbytes FP4 code table: blocks of 64, FP32 absmax"),
    };
}

const std::vector<BlockFormat>& block_formats() {
    static const std::vector<BlockFormat> formats = build_block_formats();
    return formats;
}

std::string joined_names() {
    std::string text;
    for (const std::string& n : block_format_names()) text += (text.empty() ? "" : ", ") + n;
    return text;
}

bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

const std::vector<std::string>& block_format_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> result;
        for (const BlockFormat& f : block_formats()) result.push_back(f.name);
        return result;
    }();
    return names;
}

BlockFormat parse_block_format(std::string_view name) {
    const std::size_t colon = name.find(':');
    const std::string_view base = name.substr(0, colon);
    const BlockFormat* found = nullptr;
    for (const BlockFormat& f : block_formats())
        if (f.name == base) found = &f;
    if (found == nullptr) throw Error(fmt::format("unknown block format '{}'; valid: {}", base, joined_names()));
    BlockFormat format = *found;
    std::string_view rest = colon == std::string_view::npos ? std::string_view{} : name.substr(colon + 1);
    while (!rest.empty()) {
        const std::size_t next = rest.find(':');
        const std::string_view modifier = rest.substr(0, next);
        rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
        const auto bad = [&](const char* valid) {
            return Error(fmt::format("block format '{}': modifier '{}' is not valid for {}; valid: {}", name, modifier,
                                     format.name, valid));
        };
        if (modifier.starts_with("block=")) {
            const std::string_view digits = modifier.substr(6);
            int size = 0;
            const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
            if (error != std::errc() || end != digits.data() + digits.size())
                throw Error(fmt::format("block format '{}': block size '{}' is not a number", name, digits));
            format.block_size = size;
        } else if (format.family == BlockFamily::Mx && (modifier == "floor" || modifier == "ceil")) {
            format.scale_rule = modifier == "floor" ? ScaleRule::Floor : ScaleRule::Ceil;
        } else if (format.family == BlockFamily::Absmax && modifier == "dq") {
            format.double_quantization = true;
        } else if (format.family != BlockFamily::Absmax) {
            core::RoundingMode mode{};
            try {
                mode = core::parse_rounding_mode(modifier);
            } catch (const Error&) {
                throw bad(format.family == BlockFamily::Mx ? "block=N, floor, ceil, rne, rna, rtz, rup, rdn, rto, sr"
                                                           : "rne, sr");
            }
            format.element_rounding = mode;
        } else {
            throw bad("block=N, dq");
        }
    }
    // The modified name spells the choices, so that a report names what ran.
    format.name = std::string(name);
    validate(format);
    return format;
}

void validate(const BlockFormat& format) {
    const auto fail = [&](const std::string& what) {
        throw Error(fmt::format("block format '{}': {}", format.name, what));
    };
    if (format.family == BlockFamily::Nvfp4) {
        if (format.block_size != 16) fail(fmt::format("NVFP4 blocks hold 16 values, not {}", format.block_size));
        if (format.element_rounding != core::RoundingMode::NearestEven &&
            format.element_rounding != core::RoundingMode::Stochastic)
            fail("NVFP4 element rounding is rne or sr");
    } else if (!is_power_of_two(format.block_size) || format.block_size < 2 || format.block_size > 4096) {
        fail(fmt::format("block size {} is not a power of two in 2..4096", format.block_size));
    }
    if (format.family == BlockFamily::Mx) {
        const bool integer = format.element.kind == core::FormatKind::Integer;
        if (!(format.element.kind == core::FormatKind::Binary || (integer && format.element.integer_bits == 8)) ||
            format.element.total_bits() > 8)
            fail("MX elements are FP8, FP6, FP4 or INT8");
        if (format.element_rounding == core::RoundingMode::StochasticEqual)
            fail("MX element rounding is one of rne, rna, rtz, rup, rdn, rto, sr");
    }
    if (format.double_quantization && format.family != BlockFamily::Absmax)
        fail("double quantization applies to nf4 and bnb_fp4 only");
}

int mx_element_emax(const core::FormatSpec& element) {
    if (element.kind == core::FormatKind::Integer) return 0;  // MXINT8: 1.6 fixed point, max 1.984375
    return core::binary_geometry(element).emax;
}

double element_max_magnitude(const BlockFormat& format) {
    if (format.family == BlockFamily::Absmax) return 1;
    if (format.element.kind == core::FormatKind::Integer) return 127.0 / 64;
    return core::binary_geometry(format.element).max_finite;
}

}  // namespace floatscope::emu
