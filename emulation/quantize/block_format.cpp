// The named block-scaled formats and the parser of their names.
#include "emulation/quantize/block_format.hpp"

#include <charconv>
#include <optional>

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
    nvfp4.description =
        "NVIDIA NVFP4: E2M1, blocks of 16 with an E4M3 scale, FP32 tensor scale (Transformer Engine's recipe; "
        ":torchao, :2d 16x16 tiles, :rht random Hadamard transform, :sr)";

    // DeepSeek-V3 (arXiv:2412.19437 section 3.3): E4M3 elements clamped to +-448, FP32 scales; the
    // activations' 1x128 tiles by default (one per row and 128 columns), ":128x128" the weights' blocks.
    BlockFormat fp8_blockwise;
    fp8_blockwise.name = "fp8_blockwise";
    fp8_blockwise.family = BlockFamily::Fp8Blockwise;
    fp8_blockwise.element = saturating(core::parse_format("fp8_e4m3"));
    fp8_blockwise.scale = core::parse_format("fp32");
    fp8_blockwise.block_size = 128;
    fp8_blockwise.tile_rows = 1;
    fp8_blockwise.description =
        "DeepSeek-V3 FP8 blockwise: E4M3, scale amax/448 per 1x128 tile (:128x128 blocks, :ue8m0 power-of-two "
        "scales)";

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
        fp8_blockwise,
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

/// The MX scale rule a modifier names; rceil is ceil's library name (ScaleRule::Ceil says why).
std::optional<ScaleRule> mx_rule(std::string_view modifier) {
    if (modifier == "floor") return ScaleRule::Floor;
    if (modifier == "ceil" || modifier == "rceil") return ScaleRule::Ceil;
    if (modifier == "ceil_amax") return ScaleRule::CeilAmax;
    if (modifier == "even") return ScaleRule::Even;
    return std::nullopt;
}

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
        } else if (format.family == BlockFamily::Mx && mx_rule(modifier)) {
            format.scale_rule = *mx_rule(modifier);
        } else if (format.family == BlockFamily::Absmax && modifier == "dq") {
            format.double_quantization = true;
        } else if (format.family == BlockFamily::Nvfp4 && (modifier == "te" || modifier == "torchao")) {
            format.nvfp4_recipe = modifier == "te" ? Nvfp4Recipe::TransformerEngine : Nvfp4Recipe::Torchao;
        } else if (format.family == BlockFamily::Nvfp4 && modifier == "2d") {
            format.tile_rows = 16;  // TE's NVFP4 training recipe: 16x16 weight tiles
        } else if (format.family == BlockFamily::Nvfp4 && modifier == "rht") {
            format.hadamard = true;
        } else if (format.family == BlockFamily::Fp8Blockwise) {
            if (modifier == "1x128" || modifier == "128x128") {
                format.tile_rows = modifier == "1x128" ? 1 : 128;
                format.block_size = 128;
            } else if (modifier == "ue8m0") {
                format.scale = core::parse_format("e8m0");
            } else {
                throw bad("1x128, 128x128, ue8m0");
            }
        } else if (format.family != BlockFamily::Absmax) {
            core::RoundingMode mode{};
            try {
                mode = core::parse_rounding_mode(modifier);
            } catch (const Error&) {
                throw bad(format.family == BlockFamily::Mx
                              ? "block=N, floor, ceil, rceil, ceil_amax, even, rne, rna, rtz, rup, rdn, rto, sr"
                              : "te, torchao, 2d, rht, rne, sr");
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
    } else if (format.family == BlockFamily::Fp8Blockwise) {
        if (format.block_size != 128 || (format.tile_rows != 1 && format.tile_rows != 128))
            fail("DeepSeek's FP8 blockwise tiles are 1x128 or 128x128");
        if (format.element_rounding != core::RoundingMode::NearestEven) fail("FP8 blockwise element rounding is rne");
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
    if (format.family != BlockFamily::Nvfp4 &&
        (format.hadamard || format.nvfp4_recipe != Nvfp4Recipe::TransformerEngine))
        fail("the Hadamard transform and the te/torchao recipes apply to nvfp4 only");
    if (format.family != BlockFamily::Nvfp4 && format.family != BlockFamily::Fp8Blockwise && format.tile_rows != 0)
        fail("2-D tiles apply to nvfp4 and fp8_blockwise only");
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
