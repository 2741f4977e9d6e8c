// MpfrNumber: an owning mpfr_t, so that MPFR temporaries are freed on every path.
#pragma once

#include <cstdint>  // before mpfr.h, which then declares its intmax_t functions
#include <mpfr.h>

namespace floatscope::core {

class MpfrNumber {
public:
    explicit MpfrNumber(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
    MpfrNumber(const MpfrNumber&) = delete;
    MpfrNumber& operator=(const MpfrNumber&) = delete;
    ~MpfrNumber() { mpfr_clear(value_); }

    mpfr_ptr get() { return value_; }
    mpfr_srcptr get() const { return value_; }

private:
    mpfr_t value_;
};

}  // namespace floatscope::core
