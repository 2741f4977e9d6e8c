// Unsigned integers of a fixed number of 64-bit limbs (least significant first): the fixed-size
// significands of the wide formats' fast path, with no allocation and loops the compiler unrolls.
#pragma once

#include <array>
#include <cstdint>

namespace floatscope::core {

/// A wrapper rather than a std::array alias, whose size_t parameter would keep int K from being deduced.
/// Copies go limb by limb: a plain struct copy moves 16 bytes at once through an SSE register,
/// which stalls when the limbs were just written one by one (a failed store-to-load forwarding,
/// about a dozen cycles, several times per operation).
template <int K>
struct Limbs {
    std::array<std::uint64_t, K> limb{};

    Limbs() = default;
    Limbs(const Limbs& other) { *this = other; }
    Limbs& operator=(const Limbs& other) {
        for (int i = 0; i < K; ++i) limb[static_cast<std::size_t>(i)] = other.limb[static_cast<std::size_t>(i)];
        return *this;
    }

    std::uint64_t& operator[](int i) { return limb[static_cast<std::size_t>(i)]; }
    std::uint64_t operator[](int i) const { return limb[static_cast<std::size_t>(i)]; }
    const std::uint64_t* data() const { return limb.data(); }
    friend bool operator==(const Limbs&, const Limbs&) = default;
};

/// Two limbs as one unsigned __int128 and back: on binary128's patterns the helpers below take
/// GCC's 128-bit shifts, carries and compares (shld, adc, cmov) instead of their limb loops.
using Uint128 = unsigned __int128;
inline Uint128 to_uint128(const Limbs<2>& x) { return static_cast<Uint128>(x[1]) << 64 | x[0]; }
inline Limbs<2> from_uint128(Uint128 v) {
    Limbs<2> r;
    r[0] = static_cast<std::uint64_t>(v);
    r[1] = static_cast<std::uint64_t>(v >> 64);
    return r;
}

template <int K>
bool is_zero(const Limbs<K>& x) {
    std::uint64_t any = 0;
    for (int i = 0; i < K; ++i) any |= x[i];
    return any == 0;
}

/// The number of bits up to the highest set one (0 for zero).
template <int K>
int bit_length(const Limbs<K>& x) {
    for (int i = K - 1; i >= 0; --i)
        if (x[i] != 0) return 64 * i + 64 - __builtin_clzll(x[i]);
    return 0;
}

/// The low K limbs of x (zero-extended when K is wider).
template <int K, int N>
Limbs<K> resized(const Limbs<N>& x) {
    Limbs<K> r{};
    for (int i = 0; i < K && i < N; ++i) r[i] = x[i];
    return r;
}

// The shifts below loop a fixed K times with no branch (selects only), so that they unroll: limb
// indexes out of range read as zero, and (y << 1) << (63 - s) is y << (64 - s), zero when s = 0.

/// Limb i of x; zero when i is outside 0 .. K - 1.
template <int K>
std::uint64_t limb_or_zero(const Limbs<K>& x, int i) {
    return i >= 0 && i < K ? x[i] : 0;
}

/// x * 2^n in K limbs (x has N), 0 <= n; bits beyond K limbs are lost.
template <int K, int N>
Limbs<K> shifted_left_into(const Limbs<N>& x, int n) {
    if constexpr (K == 2 && N <= 2) return from_uint128(n >= 128 ? 0 : to_uint128(resized<2>(x)) << n);
    Limbs<K> r;
    const int q = n >> 6, s = n & 63;
    for (int i = 0; i < K; ++i) r[i] = (limb_or_zero(x, i - q) << s) | ((limb_or_zero(x, i - q - 1) >> 1) >> (63 - s));
    return r;
}

/// Bits n .. n + 63 of x as one limb (bit n lowest), n >= -63; bits below 0 and above the top read as zeros.
template <int K>
std::uint64_t bits_at(const Limbs<K>& x, int n) {
    if constexpr (K == 2) {
        const Uint128 v = to_uint128(x);
        return static_cast<std::uint64_t>(n < 0 ? v << -n : n >= 128 ? 0 : v >> n);
    }
    const int q = n >> 6, s = n & 63;  // floor(n / 64), also for negative n
    return (limb_or_zero(x, q) >> s) | ((limb_or_zero(x, q + 1) << 1) << (63 - s));
}

/// floor(x / 2^n) in K limbs (x has N), 0 <= n.
template <int K, int N>
Limbs<K> shifted_right_into(const Limbs<N>& x, int n) {
    if constexpr (K == 2 && N == 2) return from_uint128(n >= 128 ? 0 : to_uint128(x) >> n);
    Limbs<K> r;
    for (int i = 0; i < K; ++i) r[i] = bits_at(x, n + 64 * i);
    return r;
}

template <int K>
Limbs<K> shifted_left(const Limbs<K>& x, int n) {
    return shifted_left_into<K>(x, n);
}
template <int K>
Limbs<K> shifted_right(const Limbs<K>& x, int n) {
    return shifted_right_into<K>(x, n);
}

/// Whether any of the lowest n bits of x is set (n >= 0).
template <int K>
bool any_below(const Limbs<K>& x, int n) {
    if constexpr (K == 2) return n > 0 && (n >= 128 ? to_uint128(x) : to_uint128(x) << (128 - n)) != 0;
    const int q = n >> 6, s = n & 63;
    std::uint64_t any = 0;
    for (int i = 0; i < K; ++i) {
        const std::uint64_t mask = i < q ? ~std::uint64_t{0} : i == q ? (std::uint64_t{1} << s) - 1 : 0;
        any |= x[i] & mask;
    }
    return any != 0;
}

/// x + y; a carry out of the top limb is lost (callers leave room for it).
template <int K>
Limbs<K> sum(const Limbs<K>& x, const Limbs<K>& y) {
    if constexpr (K == 2) return from_uint128(to_uint128(x) + to_uint128(y));
    Limbs<K> r;
    unsigned __int128 carry = 0;
    for (int i = 0; i < K; ++i) {
        carry += static_cast<unsigned __int128>(x[i]) + y[i];
        r[i] = static_cast<std::uint64_t>(carry);
        carry >>= 64;
    }
    return r;
}

/// x - y - borrow_in, for x >= y + borrow_in.
template <int K>
Limbs<K> difference(const Limbs<K>& x, const Limbs<K>& y, std::uint64_t borrow_in = 0) {
    if constexpr (K == 2) return from_uint128(to_uint128(x) - to_uint128(y) - borrow_in);
    Limbs<K> r;
    std::uint64_t borrow = borrow_in;
    for (int i = 0; i < K; ++i) {
        const unsigned __int128 t = static_cast<unsigned __int128>(x[i]) - y[i] - borrow;
        r[i] = static_cast<std::uint64_t>(t);
        borrow = static_cast<std::uint64_t>(t >> 64) & 1;  // the wrapped high half is all ones
    }
    return r;
}

/// x + 1; a carry out of the top limb is lost.
template <int K>
void increment(Limbs<K>& x) {
    if constexpr (K == 2) {
        x = from_uint128(to_uint128(x) + 1);
        return;
    }
    for (int i = 0; i < K; ++i)
        if (++x[i] != 0) return;
}

/// -1, 0 or 1 as x <, = or > y.
template <int K>
int compare(const Limbs<K>& x, const Limbs<K>& y) {
    if constexpr (K == 2) return to_uint128(x) < to_uint128(y) ? -1 : to_uint128(x) > to_uint128(y) ? 1 : 0;
    for (int i = K - 1; i >= 0; --i)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/// The exact product, schoolbook on 64 x 64 -> 128-bit multiplies.
template <int K>
Limbs<2 * K> product(const Limbs<K>& x, const Limbs<K>& y) {
    Limbs<2 * K> r{};
    for (int i = 0; i < K; ++i) {
        if (x[i] == 0) continue;
        std::uint64_t carry = 0;
        for (int j = 0; j < K; ++j) {
            const unsigned __int128 t =
                static_cast<unsigned __int128>(x[i]) * y[j] + r[i + j] + static_cast<unsigned __int128>(carry);
            r[i + j] = static_cast<std::uint64_t>(t);
            carry = static_cast<std::uint64_t>(t >> 64);
        }
        r[i + K] = carry;
    }
    return r;
}

}  // namespace floatscope::core
