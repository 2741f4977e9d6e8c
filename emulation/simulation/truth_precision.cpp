// The ground truth's precision from the policies' widest format (2p + 30 bits).
#include "emulation/simulation/truth_precision.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace floatscope::emu {

namespace {

int significand_bits(const core::FormatSpec& f) {
    switch (f.kind) {
        case core::FormatKind::Binary: return f.mantissa_bits + 1;
        case core::FormatKind::Integer: return f.integer_bits;
        case core::FormatKind::Posit:
        case core::FormatKind::Takum:
        case core::FormatKind::HiFloat8: return f.tapered_bits;
        case core::FormatKind::Lookup:
        case core::FormatKind::ExponentScale: break;
    }
    return 53;  // values held as doubles
}

}  // namespace

TruthPrecisionNeed truth_precision_need(const std::vector<PrecisionPolicy>& policies) {
    TruthPrecisionNeed need;
    auto consider = [&](const core::FormatSpec& format, const PrecisionPolicy& policy) {
        const int bits = 2 * significand_bits(format) + 30;
        if (bits <= need.bits) return;
        need = {bits, format.name, policy.name};
    };
    for (const PrecisionPolicy& policy : policies) {
        for (const core::FormatRounding& role : policy.roles) consider(role.format, policy);
        for (const PrecisionPolicy::Override& o : policy.overrides) consider(o.rounding.format, policy);
        if (policy.autocast) consider(policy.autocast->format, policy);
    }
    return need;
}

int chosen_truth_precision(int requested, const std::vector<PrecisionPolicy>& policies) {
    const TruthPrecisionNeed need = truth_precision_need(policies);
    if (requested == 0) return std::max(default_truth_precision, need.bits);
    if (requested < need.bits)
        throw Error(fmt::format("MPFR precision {} bits: below the {} bits the ground truth needs for '{}' of policy "
                                "'{}' (2p + 30, p = {}); give at least {}, or leave it out to have it chosen",
                                requested, need.bits, need.format, need.policy, (need.bits - 30) / 2, need.bits));
    return requested;
}

}  // namespace floatscope::emu
