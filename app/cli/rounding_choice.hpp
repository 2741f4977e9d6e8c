// The --round, --tininess and --seed options that encode, convert and show share.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "core/rounding.hpp"
#include "core/stochastic_source.hpp"

namespace floatscope::cli {

/// The options as typed; names are checked when a RoundingSetup is built from them, so that
/// the core's error messages (with the valid names) reach the user.
struct RoundingChoice {
    std::string mode = "rne";
    std::string tininess = "after";
    std::uint64_t seed = core::StochasticSource::default_seed;
    std::string sr_variant = "a";  ///< P3109's StochasticA, B or C
    int random_bits = 64;  ///< N, the random bits sr compares
};

void add_rounding_options(CLI::App& command, RoundingChoice& choice, bool with_tininess);

/// Rounding options and the random source they point to; not copyable, as options().random
/// points into the object.
class RoundingSetup {
public:
    /// Throws floatscope::Error for an unknown mode or tininess name.
    explicit RoundingSetup(const RoundingChoice& choice);
    RoundingSetup(const RoundingSetup&) = delete;
    RoundingSetup& operator=(const RoundingSetup&) = delete;

    const core::RoundingOptions& options() const { return options_; }

private:
    core::StochasticSource random_;
    core::RoundingOptions options_;
};

core::Tininess parse_tininess(const std::string& name);

}  // namespace floatscope::cli
