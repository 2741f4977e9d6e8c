// The sum workload's adders: what converts their terms and records their sums.
#include "emulation/workloads/sum_adders.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "emulation/accumulation/binary128_accumulation.hpp"

namespace floatscope::emu {

std::vector<core::WideBits> WideAdder::terms(const std::vector<core::WideValue>& values,
                                             const core::FormatSpec& storage) const {
    std::vector<core::WideBits> out;
    out.reserve(values.size());
    for (const core::WideValue& v : values) {
        core::WideRounded r = arithmetic_.rounder()(v);
        if (r.flags.has(core::ExceptionFlags::inexact) || r.flags.has(core::ExceptionFlags::overflow))
            throw Error(fmt::format("sum: the accumulator '{}' does not hold every value of the storage format "
                                    "'{}'; an accumulator wider than binary64 takes a storage format whose "
                                    "values it holds (binary128 holds every format within binary64)",
                                    arithmetic_.spec().name, storage.name));
        out.push_back(std::move(r.bits));
    }
    return out;
}

double WideAdder::nearest_double(const core::WideBits& x) const {
    TruthNumber v = exact(x);
    return mpfr_get_d(v.backend().data(), MPFR_RNDN);
}

void WideAdder::record(TraceRegion& region, const core::WideBits& sum) const {
    std::vector<TruthNumber> values;
    values.push_back(exact(sum));
    region.set_wide_values(std::move(values));
}

TruthNumber WideAdder::exact(const core::WideBits& x) const {
    TruthNumber v = truth_number(arithmetic_.rounder().geometry().precision);
    core::decode_wide_bits(arithmetic_.spec(), x).value.to_mpfr(v.backend().data());
    return v;
}

std::vector<__float128> QuadAdder::terms(const std::vector<core::WideValue>& values,
                                         const core::FormatSpec& storage) const {
    std::vector<__float128> out;
    out.reserve(values.size());
    for (const core::WideBits& b : wide_.terms(values, storage)) {
        const mpz_class high = b >> 64, low = b - (high << 64);
        out.push_back(std::bit_cast<__float128>((static_cast<binary128_bits::Bits>(high.get_ui()) << 64) | low.get_ui()));
    }
    return out;
}

void QuadAdder::record(TraceRegion& region, __float128 sum) const {
    std::vector<TruthNumber> values;
    binary128_to_mpfr(sum, values.emplace_back(truth_number(113)).backend().data());
    region.set_wide_values(std::move(values));
}

}  // namespace floatscope::emu
