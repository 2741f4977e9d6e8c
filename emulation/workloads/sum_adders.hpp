// The adders of the sum workload: one accumulator format's additions with their IEEE flags counted,
// on doubles (formats within binary64), on __float128 (binary128 with rne) or on wide patterns.
#pragma once

#include <bit>
#include <vector>

#include "core/format_rounding.hpp"
#include "core/stochastic_source.hpp"
#include "core/wide_format.hpp"
#include "emulation/accumulation/binary128_addition.hpp"
#include "emulation/arithmetic/arithmetic.hpp"
#include "emulation/arithmetic/operation_counters.hpp"
#include "emulation/arithmetic/truth_number.hpp"
#include "emulation/arithmetic/wide_arithmetic.hpp"
#include "emulation/simulation/trace.hpp"

namespace floatscope::emu {

/// Additions in an accumulator format within binary64: doubles, each sum the exact one rounded once
/// (emu::Arithmetic rather than the dot/sum kernels, which refuse stochastic rounding: a sum has no
/// products, and so takes stochastic rounding too).
class NarrowAdder {
public:
    using Number = double;

    NarrowAdder(const core::FormatRounding& accumulator, core::StochasticSource& random)
        : arithmetic_(accumulator.format, {accumulator.mode, core::Tininess::AfterRounding, &random}) {}

    /// The storage format's terms as this adder takes them.
    std::vector<double> terms(std::vector<double> rounded) const { return rounded; }
    double zero() const { return 0; }
    double add(double a, double b, OperationCounters& counters) const {
        return counted(arithmetic_.add(a, b), counters);
    }
    double sub(double a, double b, OperationCounters& counters) const {
        return counted(arithmetic_.sub(a, b), counters);
    }
    /// A term alone, rounded to the accumulator.
    double round(double term, OperationCounters& counters) const { return counted(arithmetic_.round(term), counters); }
    static bool changed(double before, double after) { return after != before; }  // NaN never compares equal
    static double nearest_double(double x) { return x; }
    void record(TraceRegion& region, double sum) const { region.values = {sum}; }

private:
    static double counted(const core::Rounded& r, OperationCounters& counters) {
        counters.record(r);
        return r.value;
    }

    Arithmetic arithmetic_;
};

/// Additions in an accumulator format wider than binary64 (binary128, binary256, eXmY up to
/// e30m1024): patterns (emu::WideArithmetic), each sum the exact one rounded once, as NarrowAdder.
/// The terms are converted to the accumulator first, exactly: it holds every storage value
/// (SumSeries::check_formats).
class WideAdder {
public:
    using Number = core::WideBits;

    WideAdder(const core::FormatRounding& accumulator, core::StochasticSource& random)
        : arithmetic_(accumulator.format, {accumulator.mode, core::Tininess::AfterRounding, &random}) {}

    /// Throws floatscope::Error where a storage value is not one of the accumulator's.
    std::vector<core::WideBits> terms(const std::vector<core::WideValue>& values,
                                      const core::FormatSpec& storage) const;
    core::WideBits zero() const { return 0; }
    core::WideBits add(const core::WideBits& a, const core::WideBits& b, OperationCounters& counters) const {
        return counted(arithmetic_.apply(Operation::Add, a, b), counters);
    }
    core::WideBits sub(const core::WideBits& a, const core::WideBits& b, OperationCounters& counters) const {
        return counted(arithmetic_.apply(Operation::Sub, a, b), counters);
    }
    /// A term alone: already the accumulator's (exact), counted as NarrowAdder counts its rounding.
    core::WideBits round(const core::WideBits& term, OperationCounters& counters) const {
        return counted({term, {}}, counters);
    }
    bool changed(const core::WideBits& before, const core::WideBits& after) const {
        return after != before || value_class(after) == core::ValueClass::NaN;
    }
    double nearest_double(const core::WideBits& x) const;
    void record(TraceRegion& region, const core::WideBits& sum) const;

private:
    core::ValueClass value_class(const core::WideBits& x) const {
        return core::decode_wide_bits(arithmetic_.spec(), x).value_class;
    }
    TruthNumber exact(const core::WideBits& x) const;
    core::WideBits counted(core::WideRounded r, OperationCounters& counters) const {
        counters.record(r.flags, value_class(r.bits));
        return std::move(r.bits);
    }

    WideArithmetic arithmetic_;
};

/// Additions in IEEE binary128 with round to nearest even on GCC's __float128, whose additions are
/// binary128's: the same sums and flags as WideAdder, at the speed of native quad arithmetic. The
/// flags come from the numbers, not from the floating-point environment (add_binary128).
class QuadAdder {
public:
    using Number = __float128;

    explicit QuadAdder(const core::FormatRounding& accumulator) : wide_(accumulator, unused_random_) {}

    std::vector<__float128> terms(const std::vector<core::WideValue>& values, const core::FormatSpec& storage) const;
    /// Terms of a storage format within binary64: their doubles, exact in binary128.
    static std::vector<__float128> terms(const std::vector<double>& values) {
        std::vector<__float128> out(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) out[i] = binary128_bits::from_double(values[i]);
        return out;
    }
    __float128 zero() const { return 0; }
    __float128 add(__float128 a, __float128 b, OperationCounters& counters) const {
        const Binary128Sum r = add_binary128(a, b);
        counters.record(r.flags, r.value_class);
        return r.sum;
    }
    __float128 sub(__float128 a, __float128 b, OperationCounters& counters) const { return add(a, -b, counters); }
    __float128 round(__float128 term, OperationCounters& counters) const {
        counters.record({}, binary128_bits::value_class(binary128_bits::magnitude(term)));
        return term;
    }
    bool changed(__float128 before, __float128 after) const {
        return std::bit_cast<binary128_bits::Bits>(after) != std::bit_cast<binary128_bits::Bits>(before) ||
               binary128_bits::magnitude(after) > binary128_bits::exponent_mask;  // NaN
    }
    double nearest_double(__float128 x) const { return static_cast<double>(x); }  // rne, as mpfr_get_d
    void record(TraceRegion& region, __float128 sum) const;

private:
    core::StochasticSource unused_random_{0};  ///< rne draws nothing; WideAdder converts the terms
    WideAdder wide_;
};

}  // namespace floatscope::emu
