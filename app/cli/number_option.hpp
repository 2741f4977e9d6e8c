// Range checks for numeric options, applied to the text before CLI11 converts it: CLI11's own
// conversion error ("Could not convert: --samples = 1e30") names neither the input nor a valid range.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

namespace floatscope::cli {

/// The most threads --threads takes: beyond any machine FloatScope runs on, and low enough that a
/// typo (--threads 100000) is refused instead of starting that many threads.
constexpr int max_threads = 1024;

/// Accepts a whole number in low..high; refuses anything else with "'1e30' is not a whole number
/// in 1..2147483647" (CLI11 puts the option's name in front).
CLI::Validator whole_number_in(std::int64_t low, std::uint64_t high);

/// --memory-limit SIZE ("512M", "16G"): sets the process-wide limit of core/memory_budget.hpp
/// while the command line is parsed, so that every check of the command sees it.
void add_memory_limit_option(CLI::App& command);

/// Accepts a decimal number in [low, high]; NaN never is.
CLI::Validator number_in(double low, double high);

}  // namespace floatscope::cli
