// Real: the number of FloatScope's FPCore ground truth, an MPFR number that copies without
// allocating.
#pragma once

#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <mpfr.h>

#include <cstring>

namespace floatscope::emu::fpcore {

/// A copyable MPFR number at the calling thread's truth precision (set by TruthDomain), with its
/// significand stored inline (MPFR's custom interface): copies never allocate, which is most of
/// an interpreter's work. Holds at most max_precision bits.
class Real {
public:
    static constexpr mpfr_prec_t max_precision = 2048;

    Real() { init(precision()); }  // +0
    Real(const Real& other) { copy(other); }
    Real& operator=(const Real& other) {
        if (this != &other) copy(other);
        return *this;
    }
    ~Real() = default;  // the significand is a member: nothing to free

    /// Whether other holds the same number bit for bit: precision, sign, kind, exponent and
    /// significand (so +0 and -0 differ, and a NaN is identical to a NaN).
    bool identical(const Real& other) const {
        const mpfr_prec_t bits = mpfr_get_prec(value_);
        const int kind = mpfr_custom_get_kind(value_);
        if (bits != mpfr_get_prec(other.value_) || kind != mpfr_custom_get_kind(other.value_)) return false;
        if (!mpfr_regular_p(value_)) return true;
        return mpfr_get_exp(value_) == mpfr_get_exp(other.value_) &&
               std::memcmp(limbs_, other.limbs_, mpfr_custom_get_size(bits)) == 0;
    }
    /// A cheap hash of the number: its kind, sign, exponent and top limb (equal for identical numbers).
    std::uint64_t fingerprint() const {
        const int kind = mpfr_custom_get_kind(value_);
        if (!mpfr_regular_p(value_)) return static_cast<std::uint64_t>(kind);
        const std::size_t top = mpfr_custom_get_size(mpfr_get_prec(value_)) / sizeof(mp_limb_t) - 1;
        return static_cast<std::uint64_t>(limbs_[top]) ^ (static_cast<std::uint64_t>(mpfr_get_exp(value_)) << 32) ^
               static_cast<std::uint64_t>(kind);
    }

    /// Gives this number the thread's current precision, losing its value when that changes it.
    void take_current_precision() {
        if (mpfr_get_prec(value_) != precision()) init(precision());
    }

    mpfr_ptr get() { return value_; }
    mpfr_srcptr get() const { return value_; }

    /// Precision of new Reals on this thread, in bits.
    static mpfr_prec_t& precision() {
        thread_local mpfr_prec_t bits = 256;
        return bits;
    }

private:
    void init(mpfr_prec_t bits) {
        mpfr_custom_init(limbs_, bits);
        mpfr_custom_init_set(value_, MPFR_ZERO_KIND, 0, bits, limbs_);
    }
    /// Takes other's precision and value: its header through the custom interface and only the
    /// limbs its precision uses (a copy is most of an interpreter's work; mpfr_set's general
    /// path costs several times this).
    void copy(const Real& other) {
        const mpfr_prec_t bits = mpfr_get_prec(other.value_);
        const int kind = mpfr_custom_get_kind(other.value_);
        const bool regular = mpfr_regular_p(other.value_) != 0;
        if (regular) {
            // Up to the default precision's 4 limbs, a fixed-size copy the compiler inlines.
            constexpr std::size_t small = 4 * sizeof(mp_limb_t);
            const std::size_t bytes = mpfr_custom_get_size(bits);
            std::memcpy(limbs_, other.limbs_, bytes <= small ? small : bytes);
        }
        mpfr_custom_init_set(value_, kind, regular ? mpfr_custom_get_exp(other.value_) : 0, bits, limbs_);
    }

    mpfr_t value_;
    mp_limb_t limbs_[max_precision / GMP_NUMB_BITS];
};

}  // namespace floatscope::emu::fpcore
