// Catalog of named formats and the parser of format names.
#include "core/catalog.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/p3109.hpp"
#include "core/tapered_format.hpp"
#include "core/unknown_format_error.hpp"

namespace floatscope::core {

namespace {

FormatSpec binary(std::string name, int E, int M, NanEncoding nan, std::string description) {
    FormatSpec f;
    f.name = std::move(name);
    f.kind = FormatKind::Binary;
    f.exponent_bits = E;
    f.mantissa_bits = M;
    f.nan_encoding = nan;
    f.has_infinity = nan == NanEncoding::Ieee;
    f.has_negative_zero = nan != NanEncoding::NegativeZero;
    f.bias = nan == NanEncoding::NegativeZero ? (1 << (E - 1)) : (1 << (E - 1)) - 1;
    f.description = std::move(description);
    return f;
}

FormatSpec saturating(FormatSpec f) {
    f.overflow = OverflowPolicy::Saturate;
    return f;
}

/// A format whose values live in fp32 registers and memory (tf32: its 19 bits are the datapath's).
FormatSpec in_fp32_storage(FormatSpec f) {
    f.storage_bits = 32;
    return f;
}

FormatSpec with_bias(FormatSpec f, int bias) {
    f.bias = bias;
    return f;
}

FormatSpec integer(std::string name, int bits, bool is_signed) {
    FormatSpec f;
    f.name = std::move(name);
    f.kind = FormatKind::Integer;
    f.integer_bits = bits;
    f.has_sign = is_signed;
    f.has_infinity = false;
    f.nan_encoding = NanEncoding::None;
    f.has_negative_zero = false;
    f.description = fmt::format("{}-bit {} integer", bits, is_signed ? "two's complement" : "unsigned");
    return f;
}

FormatSpec e8m0() {
    FormatSpec f;
    f.name = "e8m0";
    f.kind = FormatKind::ExponentScale;
    f.has_sign = false;
    f.exponent_bits = 8;
    f.mantissa_bits = 0;
    f.bias = 127;
    f.has_infinity = false;
    f.nan_encoding = NanEncoding::AllOnes;
    f.has_negative_zero = false;
    f.description = "OCP MX v1.0 shared scale: 2^-127 .. 2^127, 0xFF = NaN, no zero";
    return f;
}

FormatSpec nf4() {
    FormatSpec f;
    f.name = "nf4";
    f.kind = FormatKind::Lookup;
    f.has_sign = false;
    f.has_infinity = false;
    f.nan_encoding = NanEncoding::None;
    f.has_negative_zero = false;
    // The 16 NormalFloat4 codes of QLoRA (Dettmers et al. 2023, appendix E) as bitsandbytes
    // stores them: float32 constants, so each value is the float nearest the printed decimal.
    const double printed[16] = {-1.0,
                                -0.6961928009986877,
                                -0.5250730514526367,
                                -0.39491748809814453,
                                -0.28444138169288635,
                                -0.18477343022823334,
                                -0.09105003625154495,
                                0.0,
                                0.07958029955625534,
                                0.16093020141124725,
                                0.24611230194568634,
                                0.33791524171829224,
                                0.44070982933044434,
                                0.5626170039176941,
                                0.7229568362236023,
                                1.0};
    for (double v : printed) f.code_values.push_back(static_cast<float>(v));
    f.description = "QLoRA NormalFloat4: 16 quantiles of N(0,1) scaled to [-1, 1] (bitsandbytes codes)";
    return f;
}

std::vector<FormatSpec> build_catalog() {
    std::vector<FormatSpec> formats = {
        binary("fp64", 11, 52, NanEncoding::Ieee, "IEEE 754 binary64"),
        binary("fp32", 8, 23, NanEncoding::Ieee, "IEEE 754 binary32"),
        in_fp32_storage(binary("tf32", 8, 10, NanEncoding::Ieee,
                               "NVIDIA TensorFloat-32: fp32 range, fp16 precision; 19 bits of datapath, "
                               "stored in fp32 registers and memory")),
        binary("bf16", 8, 7, NanEncoding::Ieee, "bfloat16: fp32 range, 8 significant bits"),
        binary("fp16", 5, 10, NanEncoding::Ieee, "IEEE 754 binary16"),
        binary("fp8_e4m3", 4, 3, NanEncoding::AllOnes, "OCP FP8 E4M3 (e4m3fn): no inf, NaN = S.1111.111"),
        binary("fp8_e5m2", 5, 2, NanEncoding::Ieee, "OCP FP8 E5M2: IEEE-like"),
        binary("e4m3fnuz", 4, 3, NanEncoding::NegativeZero, "FP8 E4M3 FNUZ (AMD/Graphcore): bias 8, NaN = 0x80"),
        binary("e5m2fnuz", 5, 2, NanEncoding::NegativeZero, "FP8 E5M2 FNUZ (AMD/Graphcore): bias 16, NaN = 0x80"),
        binary("e3m4", 3, 4, NanEncoding::Ieee, "FP8 E3M4 (ml_dtypes float8_e3m4): IEEE-like, bias 3"),
        binary("e4m3", 4, 3, NanEncoding::Ieee, "FP8 E4M3 IEEE-like (ml_dtypes float8_e4m3): inf, max 240"),
        with_bias(binary("e4m3b11fnuz", 4, 3, NanEncoding::NegativeZero,
                         "FP8 E4M3 FNUZ with bias 11 (ml_dtypes float8_e4m3b11fnuz)"),
                  11),
        saturating(binary("fp6_e2m3", 2, 3, NanEncoding::None, "OCP MX FP6 E2M3: no inf, no NaN, max 7.5")),
        saturating(binary("fp6_e3m2", 3, 2, NanEncoding::None, "OCP MX FP6 E3M2: no inf, no NaN, max 28")),
        saturating(binary("fp4_e2m1", 2, 1, NanEncoding::None, "OCP MX FP4 E2M1: no inf, no NaN, max 6")),
        e8m0(),
        nf4(),
        integer("int8", 8, true),
        integer("int6", 6, true),
        integer("int5", 5, true),
        integer("int4", 4, true),
        integer("int3", 3, true),
        integer("uint8", 8, false),
        integer("uint4", 4, false),
        // The two 8-bit formats the P3109 Interim Report (v4.0) has every implementation support.
        p3109_format({8, 3, true, true}),
        p3109_format({8, 4, true, true}),
        // Tapered formats: the Posit Standard's posit<n,2> (2022), two posits of the earlier drafts,
        // Hunhold's linear takums (2024) and Huawei's HiFloat8 (2024); positN and takumN take any N
        // in 8..32 by the grammar.
        posit_format(8, 2),
        posit_format(16, 2),
        posit_format(32, 2),
        posit_format(8, 0),
        posit_format(16, 1),
        takum_format(8),
        takum_format(16),
        takum_format(32),
        hifloat8_format(),
    };
    // fp6/fp4 use bias 1 (E2) and 3 (E3), as OCP MX v1.0 section 5.3 defines them.
    for (FormatSpec& f : formats) validate(f);
    return formats;
}

/// Named formats wider than binary64 (IEEE 754-2019 Table 3.5: binary128 has w = 15, t = 112;
/// binary256 has w = 19, t = 236). Kept out of catalog_formats(), whose entries every narrow
/// part (format table, GUI lab, policies) takes; only the MPFR path (core/wide_format.hpp) uses them.
const std::vector<FormatSpec>& wide_named_formats() {
    static const std::vector<FormatSpec> formats = [] {
        std::vector<FormatSpec> f = {binary("binary128", 15, 112, NanEncoding::Ieee, "IEEE 754 binary128 (quadruple)"),
                                     binary("binary256", 19, 236, NanEncoding::Ieee, "IEEE 754 binary256 (octuple)")};
        for (const FormatSpec& spec : f) validate(spec);
        return f;
    }();
    return formats;
}

/// Other spellings of catalog formats; ml_dtypes names mean what they mean in ml_dtypes.
const std::map<std::string, std::string, std::less<>>& aliases() {
    static const std::map<std::string, std::string, std::less<>> table = {
        {"binary64", "fp64"},
        {"float64", "fp64"},
        {"double", "fp64"},
        {"binary32", "fp32"},
        {"float32", "fp32"},
        {"float", "fp32"},
        {"single", "fp32"},
        {"bfloat16", "bf16"},
        {"binary16", "fp16"},
        {"float16", "fp16"},
        {"half", "fp16"},
        {"e4m3fn", "fp8_e4m3"},
        {"float8_e4m3fn", "fp8_e4m3"},
        {"fp8_e4m3fn", "fp8_e4m3"},
        {"e5m2", "fp8_e5m2"},
        {"float8_e5m2", "fp8_e5m2"},
        {"float8_e4m3fnuz", "e4m3fnuz"},
        {"fp8_e4m3fnuz", "e4m3fnuz"},
        {"float8_e5m2fnuz", "e5m2fnuz"},
        {"fp8_e5m2fnuz", "e5m2fnuz"},
        {"float8_e3m4", "e3m4"},
        {"float8_e4m3", "e4m3"},
        {"float8_e4m3b11fnuz", "e4m3b11fnuz"},
        {"float6_e2m3fn", "fp6_e2m3"},
        {"float6_e3m2fn", "fp6_e3m2"},
        {"float4_e2m1fn", "fp4_e2m1"},
        {"float8_e8m0fnu", "e8m0"},
        {"e8m0fnu", "e8m0"},
        {"mxint8_element", "int8"},
        {"fp128", "binary128"},
        {"float128", "binary128"},
        {"quad", "binary128"},
        {"fp256", "binary256"},
        {"float256", "binary256"},
        {"p3109_k8p3se", "binary8p3se"},
        {"p3109_k8p4se", "binary8p4se"},
        {"hif8", "hifloat8"},
        {"posit8_es2", "posit8"},
        {"posit16_es2", "posit16"},
        {"posit32_es2", "posit32"},
    };
    return table;
}

[[noreturn]] void unknown_format(std::string_view name) { throw UnknownFormatError(name, known_format_names()); }

int parse_int(std::string_view text, std::string_view whole) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) unknown_format(whole);
    return value;
}

/// The base name without modifiers.
FormatSpec parse_base(std::string_view base, std::string_view whole) {
    const std::string_view name = [&] {
        const auto it = aliases().find(base);
        return it != aliases().end() ? std::string_view(it->second) : base;
    }();
    for (const auto* formats : {&catalog_formats(), &wide_named_formats()})
        for (const FormatSpec& f : *formats)
            if (f.name == name) return f;
    const std::string text(base);
    if (const auto p3109 = parse_p3109_name(text)) return p3109_format(*p3109);
    if (auto tapered = parse_tapered_name(text)) return *tapered;
    // eXmY[fn|fnuz]: the digits after 'e' and after 'm', then the NaN-encoding suffix.
    const std::size_t m = text.find('m');
    if (text.size() > 3 && text[0] == 'e' && m != std::string::npos && m > 1) {
        std::size_t suffix = m + 1;
        while (suffix < text.size() && std::isdigit(static_cast<unsigned char>(text[suffix]))) ++suffix;
        const std::string_view ending = std::string_view(text).substr(suffix);
        if (suffix > m + 1 && suffix - m - 1 <= 4 && m - 1 <= 2 &&
            (ending.empty() || ending == "fn" || ending == "fnuz")) {
            const int E = parse_int(std::string_view(text).substr(1, m - 1), whole);
            const int M = parse_int(std::string_view(text).substr(m + 1, suffix - m - 1), whole);
            const NanEncoding nan = ending == "fn"     ? NanEncoding::AllOnes
                                    : ending == "fnuz" ? NanEncoding::NegativeZero
                                                       : NanEncoding::Ieee;
            // Beyond 11 / 52 bits the format is wide (MPFR path; validate says what it accepts).
            if (E < 1 || E > 30 || M > 1024)
                throw Error(
                    fmt::format("format '{}': exponent bits must be 1..30 and mantissa bits 0..1024 (formats "
                                "wider than binary64 work in show, encode, decode, convert and eval)",
                                whole));
            FormatSpec f = binary(text, E, M, nan, "custom binary format");
            validate(f);
            return f;
        }
    }
    // intN and uintN
    const bool is_unsigned = text.rfind("uint", 0) == 0;
    const std::size_t digits = is_unsigned ? 4 : 3;
    if ((is_unsigned || text.rfind("int", 0) == 0) && text.size() > digits && text.size() <= digits + 2) {
        const int bits = parse_int(std::string_view(text).substr(digits), whole);
        if (bits < 2 || bits > 32) throw Error(fmt::format("format '{}': integers have 2..32 bits", whole));
        return integer(text, bits, !is_unsigned);
    }
    unknown_format(whole);
}

}  // namespace

const std::vector<FormatSpec>& catalog_formats() {
    static const std::vector<FormatSpec> formats = build_catalog();
    return formats;
}

std::vector<std::string> format_aliases(std::string_view name) {
    std::vector<std::string> names;
    for (const auto& [alias, target] : aliases())
        if (target == name) names.push_back(alias);
    return names;
}

std::vector<std::string> known_format_names() {
    std::vector<std::string> names;
    for (const FormatSpec& f : catalog_formats()) names.push_back(f.name);
    for (const FormatSpec& f : wide_named_formats()) names.push_back(f.name);
    for (const auto& [alias, target] : aliases()) names.push_back(alias);
    return names;
}

FormatSpec parse_format(std::string_view name) {
    std::string lowered;
    for (char c : name) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t colon = lowered.find(':');
    FormatSpec f = parse_base(std::string_view(lowered).substr(0, colon), name);
    if (colon == std::string::npos) return f;
    std::string_view rest = std::string_view(lowered).substr(colon + 1);
    while (true) {
        const std::size_t next = rest.find(':');
        const std::string_view modifier = rest.substr(0, next);
        if (modifier == "sat" || modifier == "satpropagate") {
            f.overflow = OverflowPolicy::Saturate;
        } else if (modifier == "satfinite") {
            f.overflow = OverflowPolicy::SaturateFinite;
        } else if (modifier == "ieee" || modifier == "satnone") {
            f.overflow = OverflowPolicy::Ieee;
        } else if (modifier == "ftz") {
            f.subnormals = SubnormalPolicy::Flush;
        } else if (modifier.substr(0, 5) == "bias=" && f.kind == FormatKind::Binary) {
            const std::string_view bias = modifier.substr(5);
            const auto [end, error] = std::from_chars(bias.data(), bias.data() + bias.size(), f.bias);
            if (bias.empty() || error != std::errc() || end != bias.data() + bias.size())
                throw Error(fmt::format("format '{}': bias '{}' is not an integer; write bias=N, e.g. e4m3:bias=8",
                                        name, bias));
        } else {
            throw Error(
                fmt::format("unknown modifier '{}' in format '{}'; valid: sat (= satpropagate), satfinite, "
                            "ieee (= satnone), ftz, bias=N (binary formats)",
                            modifier, name));
        }
        if (next == std::string_view::npos) break;
        rest = rest.substr(next + 1);
    }
    if ((f.overflow != OverflowPolicy::Ieee || f.subnormals == SubnormalPolicy::Flush) && f.is_tapered())
        throw Error(
            fmt::format("format '{}': posits, takums and HiFloat8 take no :sat or :ftz (posits and takums "
                        "saturate by definition)",
                        name));
    if ((f.overflow != OverflowPolicy::Ieee || f.subnormals == SubnormalPolicy::Flush) &&
        f.kind != FormatKind::Binary && f.kind != FormatKind::ExponentScale)
        throw Error(fmt::format("format '{}': sat and ftz apply to floating-point formats only", name));
    if (f.overflow == OverflowPolicy::SaturateFinite && f.kind != FormatKind::Binary)
        throw Error(fmt::format("format '{}': satfinite applies to binary floating-point formats only", name));
    f.name = lowered;
    validate(f);
    return f;
}

}  // namespace floatscope::core
