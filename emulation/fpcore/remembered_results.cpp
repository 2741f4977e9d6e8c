// The ground truth's table of recent costly results.
#include "emulation/fpcore/remembered_results.hpp"

#include <cstdint>

namespace floatscope::emu::fpcore {

RememberedResults::RememberedResults() : entries_(entry_count) {}

bool RememberedResults::worth_remembering(Op op) {
    switch (op) {
        case Op::Exp:
        case Op::Exp2:
        case Op::Expm1:
        case Op::Log:
        case Op::Log10:
        case Op::Log2:
        case Op::Log1p:
        case Op::Pow:
        case Op::Cbrt:
        case Op::Hypot:
        case Op::Sin:
        case Op::Cos:
        case Op::Tan:
        case Op::Asin:
        case Op::Acos:
        case Op::Atan:
        case Op::Atan2:
        case Op::Sinh:
        case Op::Cosh:
        case Op::Tanh:
        case Op::Asinh:
        case Op::Acosh:
        case Op::Atanh:
        case Op::Erf:
        case Op::Erfc:
        case Op::Tgamma:
        case Op::Lgamma: return true;
        default: return false;
    }
}

namespace {

/// MurmurHash3's 64-bit finalizer (Appleby): every input bit moves every output bit, so numbers
/// that differ only in their exponent (x, 2x, 4x: one program's sines) take different entries.
std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51'afd7'ed55'8ccd;
    h ^= h >> 33;
    h *= 0xc4ce'b9fe'1a85'ec53;
    h ^= h >> 33;
    return h;
}

}  // namespace

std::size_t RememberedResults::slot(Op op, const Real* const* args, int count) {
    std::uint64_t h = static_cast<std::uint64_t>(op);
    for (int i = 0; i < count; ++i) h = mix(h ^ args[i]->fingerprint());
    return static_cast<std::size_t>(h % entry_count);
}

const Real* RememberedResults::find(Op op, const Real* const* args, int count) const {
    const Entry& e = entries_[slot(op, args, count)];
    if (e.count != count || e.op != op || mpfr_get_prec(e.result.get()) != Real::precision()) return nullptr;
    for (int i = 0; i < count; ++i)
        if (!e.operands[i].identical(*args[i])) return nullptr;
    return &e.result;
}

Real& RememberedResults::remember(Op op, const Real* const* args, int count) {
    Entry& e = entries_[slot(op, args, count)];
    e.op = op;
    e.count = count;
    for (int i = 0; i < count; ++i) e.operands[i] = *args[i];
    e.result.take_current_precision();
    return e.result;
}

}  // namespace floatscope::emu::fpcore
