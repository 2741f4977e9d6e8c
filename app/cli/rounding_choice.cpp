// Shared rounding options of the subcommands.
#include "app/cli/rounding_choice.hpp"

#include <charconv>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::cli {

void add_rounding_options(CLI::App& command, RoundingChoice& choice, bool with_tininess) {
    command.add_option("--round,-r", choice.mode, "rounding mode: rne rna rtz rup rdn rto sr sr-equal")
        ->capture_default_str();
    if (with_tininess)
        command.add_option("--tininess", choice.tininess, "underflow detection: after or before rounding")
            ->capture_default_str();
    // Checked as text first: CLI11's own conversion error ("Could not convert") names no valid range.
    const CLI::Validator seed_check(
        [](std::string& text) -> std::string {
            std::uint64_t value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (text.empty() || error != std::errc() || end != text.data() + text.size())
                return fmt::format("'{}' is not a seed; expected a whole number in 0..18446744073709551615", text);
            return {};
        },
        "UINT");
    command.add_option("--seed", choice.seed, "seed of the random source of sr and sr-equal")->check(seed_check);
}

core::Tininess parse_tininess(const std::string& name) {
    if (name == "after") return core::Tininess::AfterRounding;
    if (name == "before") return core::Tininess::BeforeRounding;
    throw Error(fmt::format("unknown tininess '{}'; valid: after, before", name));
}

RoundingSetup::RoundingSetup(const RoundingChoice& choice) : random_(choice.seed) {
    options_.mode = core::parse_rounding_mode(choice.mode);
    options_.tininess = parse_tininess(choice.tininess);
    options_.random = &random_;
}

}  // namespace floatscope::cli
