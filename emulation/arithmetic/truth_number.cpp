// TruthNumber's process-wide precision and the exact conversion of doubles into it.
#include "emulation/arithmetic/truth_number.hpp"

#include <cmath>

namespace floatscope::emu {

TruthPrecisionScope::TruthPrecisionScope(int bits) : previous_digits10_(TruthNumber::default_precision()) {
    // Boost converts digits10 back to bits rounding up, so this gives at least `bits`.
    TruthNumber::default_precision(static_cast<unsigned>(std::ceil(bits * std::log10(2.0))) + 1);
}

TruthPrecisionScope::~TruthPrecisionScope() { TruthNumber::default_precision(previous_digits10_); }

TruthNumber truth_number(int bits) {
    // Copied from a NaN of `bits` bits, so that its limbs are allocated for `bits`: a number made
    // at the default precision and narrowed keeps the default's limbs (mpfr_set_prec never shrinks).
    thread_local std::vector<mp_limb_t> limbs;
    limbs.resize((mpfr_custom_get_size(bits) + sizeof(mp_limb_t) - 1) / sizeof(mp_limb_t));
    mpfr_t nan;
    mpfr_custom_init(limbs.data(), bits);
    mpfr_custom_init_set(nan, MPFR_NAN_KIND, 0, bits, limbs.data());
    return TruthNumber(nan);
}

std::vector<TruthNumber> to_truth(std::span<const double> values, int precision) {
    std::vector<TruthNumber> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        mpfr_set_prec(out[i].backend().data(), precision);
        mpfr_set_d(out[i].backend().data(), values[i], MPFR_RNDN);  // exact for precision >= 53
    }
    return out;
}

}  // namespace floatscope::emu
