// `show VALUE`: one value in several formats - bit fields, exact stored value, error, neighbours.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <tuple>

#include <fmt/format.h>
#include <unistd.h>

#include "app/cli/commands.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
#include "core/decimal.hpp"
#include "core/exact_value.hpp"
#include "core/mpfr_number.hpp"

namespace floatscope::cli {

namespace {

const std::vector<std::string> default_formats = {"fp64",     "fp32",     "tf32",     "bf16", "fp16",
                                                  "fp8_e4m3", "fp8_e5m2", "fp4_e2m1", "nf4",  "int8"};

struct ShowOptions {
    std::string value;
    std::vector<std::string> formats;
    RoundingChoice rounding;
};

/// Everything shown for one format, as text; computed apart from the layout that prints it.
struct FormatView {
    core::FormatSpec spec;
    core::Rounded rounded;
    core::Decoded decoded;
    std::string absolute_error;
    std::string relative_error;
    std::string next_down;
    std::string next_up;
};

/// The input as an MPFR number precise enough that |stored - x| comes out right to the digits
/// printed. ExactValue keeps 64 bits and a sticky bit (enough to round, not to measure a tiny
/// error): when it is not exact, the text is read again at a precision covering every dyadic
/// value of a supported format.
void reference_value(const std::string& text, const core::ExactValue& x, core::MpfrNumber& out) {
    if (!x.sticky) {
        x.to_mpfr(out.get());
        return;
    }
    // For a decimal x = N 10^k and a format value s != x, |x - s| >= 2^-1074 |x| / N, as no
    // format has a quantum below 2^-1074: 1074 + 3.33 bits per digit + 20 keep four digits of
    // |x - s| right (integers up to 10^308 fit too). Hex floats are exact at 4 bits per digit.
    mpfr_set_prec(out.get(), static_cast<mpfr_prec_t>(4 * text.size() + 1200));
    core::parse_value_to_mpfr(text, out.get());
}

std::string significant(mpfr_srcptr x) {
    if (mpfr_zero_p(x)) return "0";
    char buffer[64];
    mpfr_snprintf(buffer, sizeof buffer, "%.4Rg", x);
    return buffer;
}

/// |stored - x| and |stored - x| / |x| to four significant digits, "n/a" where undefined.
std::pair<std::string, std::string> rounding_error(const std::string& text, const core::ExactValue& x, double stored) {
    using Kind = core::ExactValue::Kind;
    using Texts = std::pair<std::string, std::string>;
    if (x.kind == Kind::NaN || std::isnan(stored)) return {"n/a", "n/a"};
    if (x.kind == Kind::Infinite) {
        const bool same = std::isinf(stored) && (stored < 0) == x.negative;
        return same ? Texts{"0", "0"} : Texts{"inf", "inf"};
    }
    if (std::isinf(stored)) return {"inf", "inf"};
    core::MpfrNumber exact(128);
    reference_value(text, x, exact);
    if (x.kind == Kind::Finite && (mpfr_inf_p(exact.get()) || mpfr_zero_p(exact.get())))
        return {"n/a", "n/a"};  // beyond MPFR's exponent range
    core::MpfrNumber difference(mpfr_get_prec(exact.get()) + 64);
    mpfr_set_d(difference.get(), stored, MPFR_RNDN);
    mpfr_sub(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    mpfr_abs(difference.get(), difference.get(), MPFR_RNDN);
    const std::string absolute = significant(difference.get());
    if (x.kind == Kind::Zero) return {absolute, mpfr_zero_p(difference.get()) ? "0" : "n/a"};
    mpfr_abs(exact.get(), exact.get(), MPFR_RNDN);
    mpfr_div(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    return {absolute, significant(difference.get())};
}

std::string neighbour(const core::FormatSpec& spec, std::uint64_t bits, std::uint64_t next) {
    if (core::decode_bits(spec, bits).value_class == core::ValueClass::NaN) return "n/a";
    if (next == bits) return "none";
    return core::exact_decimal(core::decode_bits(spec, next).value);
}

FormatView view_in(const core::FormatSpec& spec, const std::string& text, const core::ExactValue& x,
                   const core::RoundingOptions& rounding) {
    FormatView v{spec, core::Rounder(spec, rounding)(x), {}, {}, {}, {}, {}};
    v.decoded = core::decode_bits(spec, v.rounded.bits);
    std::tie(v.absolute_error, v.relative_error) = rounding_error(text, x, v.rounded.value);
    v.next_down = neighbour(spec, v.rounded.bits, core::next_down(spec, v.rounded.bits));
    v.next_up = neighbour(spec, v.rounded.bits, core::next_up(spec, v.rounded.bits));
    return v;
}

/// Sign, exponent and mantissa fields in red, green and blue (terminals only).
std::string coloured_fields(const core::FormatSpec& spec, std::uint64_t bits, bool colour) {
    const std::string plain = core::format_bits_fields(spec, bits);
    if (!colour || spec.kind != core::FormatKind::Binary) return plain;
    std::vector<const char*> colours;
    if (spec.has_sign) colours.push_back("\033[31m");
    colours.push_back("\033[32m");
    if (spec.mantissa_bits > 0) colours.push_back("\033[34m");
    std::string out;
    std::size_t start = 0;
    for (std::size_t field = 0; field < colours.size(); ++field) {
        const std::size_t end = std::min(plain.find('|', start), plain.size());
        if (field > 0) out += '|';
        out += colours[field] + plain.substr(start, end - start) + "\033[0m";
        start = end + 1;
    }
    return out;
}

bool stdout_wants_colour() { return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr; }

void print_view(std::ostream& out, const FormatView& v, bool colour) {
    auto line = [&](const char* label, const std::string& text) { out << fmt::format("  {:<10} {}\n", label, text); };
    out << v.spec.name << '\n';
    line("bits", coloured_fields(v.spec, v.rounded.bits, colour));
    line("hex", core::format_bits_hex(v.spec, v.rounded.bits));
    line("class", core::to_string(v.decoded.value_class));
    line("value", core::exact_decimal(v.rounded.value));
    line("shortest", core::shortest_decimal(v.spec, v.rounded.value));
    line("abs error", v.absolute_error);
    line("rel error", v.relative_error);
    line("flags", core::flags_hex(v.rounded.flags) + " " + core::flags_names(v.rounded.flags));
    line("next down", v.next_down);
    line("next up", v.next_up);
}

int run_show(std::ostream& out, const ShowOptions& options) {
    const core::ExactValue x = core::parse_exact_value(options.value);
    const std::vector<std::string>& names = options.formats.empty() ? default_formats : options.formats;
    std::vector<core::FormatSpec> specs;
    for (const std::string& name : names) specs.push_back(core::parse_format(name));
    const RoundingSetup rounding(options.rounding);

    const bool colour = stdout_wants_colour();
    out << "input " << options.value << " (rounding " << options.rounding.mode << ")\n";
    for (const core::FormatSpec& spec : specs) {
        out << '\n';
        print_view(out, view_in(spec, options.value, x, rounding.options()), colour);
    }
    return 0;
}

}  // namespace

Command add_show_command(CLI::App& parent) {
    auto options = std::make_shared<ShowOptions>();
    CLI::App* command =
        parent.add_subcommand("show", "a value in several formats: bits, exact value, error, neighbours");
    command
        ->add_option("VALUE", options->value,
                     "decimal (0.1), hex float (0x1.8p-3), inf or nan (-inf and -nan only after --)")
        ->required();
    command->add_option("--format,-f", options->formats,
                        "format to show (repeatable; default: fp64 fp32 tf32 bf16 fp16 fp8_e4m3 fp8_e5m2 fp4_e2m1 nf4 "
                        "int8)")
        ->allow_extra_args(false);  // one name per --format, so that `-f fp16 -- -inf` reads -inf as the value
    add_rounding_options(*command, options->rounding, false);
    return {command, [options](std::ostream& out) { return run_show(out, *options); }};
}

}  // namespace floatscope::cli
