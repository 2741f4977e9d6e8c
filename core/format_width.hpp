// Whether a format fits the narrow machinery (uint64 patterns, exact doubles) or needs the wide path.
#pragma once

#include "core/format.hpp"

namespace floatscope::core {

/// A binary format with more than 11 exponent or 52 mantissa bits: its values are not all doubles
/// and its patterns may not fit 64 bits, so only the MPFR path (core/wide_format.hpp) handles it.
bool is_wider_than_binary64(const FormatSpec& spec);

/// The guard of the narrow machinery (Rounder, codec, geometry): throws floatscope::Error naming
/// the format and where wide formats do work when `spec` is wider than binary64.
void require_within_binary64(const FormatSpec& spec);

}  // namespace floatscope::core
