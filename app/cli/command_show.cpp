// `show VALUE`: one value in several formats - bit fields, exact stored value, error, neighbours.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <tuple>

#include <fmt/format.h>
#include <unistd.h>

#include "app/cli/bit_level_format.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/rounding_choice.hpp"
#include "core/catalog.hpp"
#include "core/codec.hpp"
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
    Produced rounded;
    std::string fields;
    std::string value_class;
    std::string value;
    std::string shortest;
    std::string absolute_error;
    std::string relative_error;
    std::string next_down;
    std::string next_up;
};

/// The input as an MPFR number precise enough that |stored - x| comes out right to the digits
/// printed, or false when that takes more than 2^24 bits (tiny inputs in formats with 20 and more
/// exponent bits). ExactValue keeps 64 bits and a sticky bit (enough to round, not to measure a
/// tiny error): when it is not exact, the text is read again at a precision covering the
/// format's grid around x, whose quantum is 2^quantum_exponent.
bool reference_value(const std::string& text, const core::ExactValue& x, std::int64_t quantum_exponent,
                     core::MpfrNumber& out) {
    if (!x.sticky) {
        x.to_mpfr(out.get());
        return true;
    }
    // For a decimal x = N 10^k and a format value s != x on that grid, |x - s| >= 2^quantum / 10^-k
    // = 2^quantum |x| / N: 3.33 bits per digit and -quantum_exponent bits below 2^0 (at least
    // 1074, binary64's, which bounds every narrow format), x's own bits above 2^0, and 126 more keep
    // four digits of |x - s| right. Hex floats are exact at 4 bits per digit.
    const std::int64_t span = std::max<std::int64_t>({1074, -quantum_exponent, x.exponent});
    const std::int64_t precision = 4 * static_cast<std::int64_t>(text.size()) + 126 + span;
    if (precision > (std::int64_t{1} << 24)) return false;
    mpfr_set_prec(out.get(), static_cast<mpfr_prec_t>(precision));
    core::parse_value_to_mpfr(text, out.get());
    return true;
}

std::string significant(mpfr_srcptr x) {
    if (mpfr_zero_p(x)) return "0";
    char buffer[64];
    mpfr_snprintf(buffer, sizeof buffer, "%.4Rg", x);
    return buffer;
}

/// |stored - x| and |stored - x| / |x| to four significant digits, "n/a" where undefined.
std::pair<std::string, std::string> rounding_error(const std::string& text, const core::ExactValue& x,
                                                   const core::WideValue& stored, const BitLevelFormat& format) {
    using Kind = core::ExactValue::Kind;
    using Texts = std::pair<std::string, std::string>;
    if (x.kind == Kind::NaN || stored.kind == Kind::NaN) return {"n/a", "n/a"};
    if (x.kind == Kind::Infinite) {
        const bool same = stored.kind == Kind::Infinite && stored.negative == x.negative;
        return same ? Texts{"0", "0"} : Texts{"inf", "inf"};
    }
    if (stored.kind == Kind::Infinite) return {"inf", "inf"};
    core::MpfrNumber exact(128);
    if (!reference_value(text, x, format.quantum_exponent_at(x.exponent), exact)) return {"n/a", "n/a"};
    if (x.kind == Kind::Finite && (mpfr_inf_p(exact.get()) || mpfr_zero_p(exact.get())))
        return {"n/a", "n/a"};  // beyond MPFR's exponent range
    core::MpfrNumber difference(mpfr_get_prec(exact.get()) + 64);
    stored.to_mpfr(difference.get());
    mpfr_sub(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    mpfr_abs(difference.get(), difference.get(), MPFR_RNDN);
    const std::string absolute = significant(difference.get());
    if (x.kind == Kind::Zero) return {absolute, mpfr_zero_p(difference.get()) ? "0" : "n/a"};
    mpfr_abs(exact.get(), exact.get(), MPFR_RNDN);
    mpfr_div(difference.get(), difference.get(), exact.get(), MPFR_RNDN);
    return {absolute, significant(difference.get())};
}

std::string neighbour(const BitLevelFormat& format, const std::string& hex, const std::string& next) {
    if (format.value_class(hex) == core::to_string(core::ValueClass::NaN)) return "n/a";
    if (next == hex) return "none";
    return format.exact_decimal(next);
}

FormatView view_in(const core::FormatSpec& spec, const std::string& text, const core::ExactValue& x,
                   const core::RoundingOptions& rounding) {
    const BitLevelFormat format(spec, rounding);
    FormatView v;
    v.spec = spec;
    v.rounded = format.round_text(text);
    const std::string& hex = v.rounded.hex;
    v.fields = format.fields(hex);
    v.value_class = format.value_class(hex);
    v.value = format.exact_decimal(hex);
    v.shortest = format.shortest_decimal(hex);
    std::tie(v.absolute_error, v.relative_error) = rounding_error(text, x, format.value_of(hex), format);
    v.next_down = neighbour(format, hex, format.next_down(hex));
    v.next_up = neighbour(format, hex, format.next_up(hex));
    return v;
}

/// Sign, exponent and mantissa fields in red, green and blue (terminals only).
std::string coloured_fields(const core::FormatSpec& spec, const std::string& plain, bool colour) {
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
    line("bits", coloured_fields(v.spec, v.fields, colour));
    line("hex", v.rounded.hex);
    line("class", v.value_class);
    line("value", v.value);
    line("shortest", v.shortest);
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
