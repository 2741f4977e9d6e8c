// Shared rounding options of the subcommands.
#include "app/cli/rounding_choice.hpp"

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "app/cli/number_option.hpp"
#include "core/error.hpp"
#include "core/rounding_mode.hpp"

namespace floatscope::cli {

void add_rounding_options(CLI::App& command, RoundingChoice& choice, bool with_tininess) {
    command.add_option("--round,-r", choice.mode, "rounding mode: rne rna rtz rup rdn rto sr sr-equal")
        ->capture_default_str();
    if (with_tininess)
        command.add_option("--tininess", choice.tininess, "underflow detection: after or before rounding")
            ->capture_default_str();
    command.add_option("--seed", choice.seed, "seed of the random source of sr and sr-equal")
        ->check(whole_number_in(0, UINT64_MAX));
    command
        .add_option("--sr-variant", choice.sr_variant,
                    "how sr compares its random bits: a, b or c (P3109 StochasticA/B/C)")
        ->capture_default_str();
    command.add_option("--random-bits", choice.random_bits, "N, the random bits sr draws (a: 1..64, b and c: 1..63)")
        ->capture_default_str();
}

core::Tininess parse_tininess(const std::string& name) {
    if (name == "after") return core::Tininess::AfterRounding;
    if (name == "before") return core::Tininess::BeforeRounding;
    throw Error(fmt::format("unknown tininess '{}'; valid: after, before", name));
}

RoundingSetup::RoundingSetup(const RoundingChoice& choice)
    : random_(choice.seed, {core::parse_stochastic_variant(choice.sr_variant), choice.random_bits}) {
    options_.mode = core::parse_rounding_mode(choice.mode);
    options_.tininess = parse_tininess(choice.tininess);
    options_.random = &random_;
}

}  // namespace floatscope::cli
