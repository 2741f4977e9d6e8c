// How many bits the MPFR ground truth computes with: raised above the widest format of a run's
// policies, and a precision asked for below that refused with the reason.
#pragma once

#include <string>
#include <vector>

#include "emulation/simulation/precision_policy.hpp"

namespace floatscope::emu {

/// The truth's precision when nothing asks for more: 256 bits.
constexpr int default_truth_precision = 256;

/// What the policies' formats need of the truth: 2p + 30 bits for the widest significand p among
/// every format a policy names (roles, overrides, autocast), so that the truth's own rounding
/// (2^-(2p+30) relative) stays 2^-(p+30) below the widest format's unit roundoff even after a
/// product of two of its values. p: a binary format's mantissa bits + 1, an integer's width, a
/// tapered format's width, 53 for a table of doubles (nf4) or an exponent scale.
struct TruthPrecisionNeed {
    int bits = 0;  ///< 2p + 30; 0 without policies
    std::string format;  ///< the widest format's name
    std::string policy;  ///< the policy that names it first
};
TruthPrecisionNeed truth_precision_need(const std::vector<PrecisionPolicy>& policies);

/// The truth's precision for `requested` bits (0: automatic, the larger of 256 and the need);
/// throws floatscope::Error naming the need, the format and the policy when `requested` is below it.
int chosen_truth_precision(int requested, const std::vector<PrecisionPolicy>& policies);

}  // namespace floatscope::emu
