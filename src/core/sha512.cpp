// SHA-512 written from FIPS 180-4 (sections 4.1.3, 4.2.3, 5.1.2, 5.3.5, 6.4).
// The constants were generated from their definition (fractional parts of the cube and
// square roots of the first primes) and the digest is checked against Python's hashlib
// in tests/test_core_wall.py.
#include "sha512.hpp"

#include <cstring>

// The vector code below is templates with no target of their own, always inlined into
// the functions compiled for AVX2 or AVX-512 that use them: no call passes or returns a
// vector, so GCC's note that such a call would change the ABI does not apply.
// (In a unity build the setting holds for the files after this one too: GCC checks the
// templates' instances at the end of the translation unit.  None of them uses vectors.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace replay_audit::core {
namespace {

// FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube roots of the
// first eighty primes.
constexpr std::uint64_t kRound[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
    0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
    0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
    0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
    0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
    0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
    0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
    0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
    0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
    0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
    0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
    0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
    0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
    0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
    0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
    0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
    0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL
};

// FIPS 180-4 5.3.5: the first 64 bits of the fractional parts of the square roots of
// the first eight primes.
constexpr std::uint64_t kInitial[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

constexpr std::uint64_t rotr(std::uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

// FIPS 180-4 6.4.2 step 1: the message schedule, W[16..79] from the block's W[0..15]
// (constexpr: the padding block's schedule, kPad128, is worked out at compile time).
constexpr void expand_schedule(std::uint64_t w[80]) {
    for (int t = 16; t < 80; ++t) {
        const std::uint64_t s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
        const std::uint64_t s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
}

inline std::uint64_t load_be64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

inline void store_be64(std::uint8_t* p, std::uint64_t v) {
    for (int i = 7; i >= 0; --i) {
        p[i] = static_cast<std::uint8_t>(v);
        v >>= 8;
    }
}

// One 1024-bit block (FIPS 180-4 6.4.2).
void compress(std::uint64_t state[8], const std::uint8_t* block) {
    std::uint64_t w[80];
    for (int t = 0; t < 16; ++t) w[t] = load_be64(block + 8 * t);
    expand_schedule(w);
    std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 80; ++t) {
        const std::uint64_t big_s1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41);
        const std::uint64_t ch = (e & f) ^ (~e & g);
        const std::uint64_t t1 = h + big_s1 + ch + kRound[t] + w[t];
        const std::uint64_t big_s0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39);
        const std::uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        const std::uint64_t t2 = big_s0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

// The padding block of a 128-byte message (5.1.2: 0x80, zeros, the length 1024 as a
// 128-bit big-endian number) is the same for every such message, so its message
// schedule is too: kRound[t] + W[t] of that block, computed once at compile time.
struct PadRounds {
    std::uint64_t kw[80] = {};
    constexpr PadRounds() {
        std::uint64_t w[80] = {};
        w[0] = 0x8000000000000000ULL;
        w[15] = 1024;
        expand_schedule(w);
        for (int t = 0; t < 80; ++t) kw[t] = kRound[t] + w[t];
    }
};
constexpr PadRounds kPad128{};

// The chunks' hashing below is written once for a "word" W that is either one 64-bit
// word (one chunk) or a GCC vector of them (one chunk per lane), the same expressions
// for both; the vector types are declared with the functions compiled for them.
template <class W>
constexpr int kLanes = static_cast<int>(sizeof(W) / sizeof(std::uint64_t));

template <class W>
[[gnu::always_inline]] inline W splat(std::uint64_t x) {
    if constexpr (kLanes<W> == 1) {
        return x;
    } else {
        W v{};  // lane by lane: GCC 12 makes one broadcast of this, eight of W{} + x
        for (int l = 0; l < kLanes<W>; ++l) v[l] = x;
        return v;
    }
}

template <class W>
[[gnu::always_inline]] inline W rot(const W& x, int n) {
    return (x >> n) | (x << (64 - n));
}

// Chunks hashed side by side, one per lane of W: where their 128-byte inputs are and
// their digests go, the first block's message schedule, the state and the working
// variables a..h (FIPS 180-4 6.4.2), round t keeping variable r in v[(r - t) & 7]: the
// rounds rename the variables instead of moving seven of them.
template <class W>
struct Lanes {
    const std::uint8_t* const* in;
    std::uint8_t* const* out;
    W w[80];
    W s[8];
    W v[8];
};

template <class W>
[[gnu::always_inline]] inline void start(Lanes<W>& x) {
    for (int t = 0; t < 16; ++t) {
        W word{};
        for (int l = 0; l < kLanes<W>; ++l) {
            if constexpr (kLanes<W> == 1) {
                word = load_be64(x.in[l] + 8 * t);
            } else {
                word[l] = load_be64(x.in[l] + 8 * t);
            }
        }
        x.w[t] = word;
    }
    for (int t = 16; t < 80; ++t) {
        const W a = x.w[t - 15], b = x.w[t - 2];
        x.w[t] = x.w[t - 16] + (rot(a, 1) ^ rot(a, 8) ^ (a >> 7)) + x.w[t - 7] +
                 (rot(b, 19) ^ rot(b, 61) ^ (b >> 6));
    }
    for (int i = 0; i < 8; ++i) x.s[i] = x.v[i] = splat<W>(kInitial[i]);
}

// Round ``t`` with ``kw`` = K[t] + W[t] (FIPS 180-4 6.4.2 step 3).
template <class W>
[[gnu::always_inline]] inline void round(Lanes<W>& x, int t, const W& kw) {
    W* v = x.v;
    const int j = t & 7;
    const W a = v[(0 - j) & 7], b = v[(1 - j) & 7], c = v[(2 - j) & 7];
    const W e = v[(4 - j) & 7], f = v[(5 - j) & 7], g = v[(6 - j) & 7];
    // Ch and Maj in forms with fewer operations, the same values.
    const W t1 = v[(7 - j) & 7] + (rot(e, 14) ^ rot(e, 18) ^ rot(e, 41)) + (g ^ (e & (f ^ g))) + kw;
    const W t2 = (rot(a, 28) ^ rot(a, 34) ^ rot(a, 39)) + ((a & b) | (c & (a | b)));
    v[(3 - j) & 7] += t1;
    v[(7 - j) & 7] = t1 + t2;
}

template <class W>
[[gnu::always_inline]] inline void round_chunk(Lanes<W>& x, int t) {
    round(x, t, x.w[t] + kRound[t]);
}

template <class W>
[[gnu::always_inline]] inline void round_pad(Lanes<W>& x, int t) {
    round(x, t, splat<W>(kPad128.kw[t]));
}

template <class W>
[[gnu::always_inline]] inline void end_block(Lanes<W>& x) {
    for (int i = 0; i < 8; ++i) x.v[i] = x.s[i] += x.v[i];
}

template <class W>
[[gnu::always_inline]] inline void finish(Lanes<W>& x) {
    for (int l = 0; l < kLanes<W>; ++l) {
        for (int i = 0; i < 8; ++i) {
            if constexpr (kLanes<W> == 1) {
                store_be64(x.out[l] + 8 * i, x.s[i]);
            } else {
                store_be64(x.out[l] + 8 * i, x.s[i][l]);
            }
        }
    }
}

// The groups' two blocks each, their rounds interleaved in one loop: the processor
// overlaps the groups' dependency chains (each round waits on the one before it), and
// a scalar group runs in the integer units beside a vector group, nearly for free.
template <class... W>
[[gnu::always_inline]] inline void hash_together(Lanes<W>&... groups) {
    (start(groups), ...);
    for (int t = 0; t < 80; t += 8) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) (round_chunk(groups, t + j), ...);
    }
    (end_block(groups), ...);
    for (int t = 0; t < 80; t += 8) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) (round_pad(groups, t + j), ...);
    }
    (end_block(groups), ...);
    (finish(groups), ...);
}

// One chunk (the plain code's batch, and any chunk left over from the batches below).
void hash_1(const std::uint8_t* const* in, std::uint8_t* const* out) {
    Lanes<std::uint64_t> x{in, out, {}, {}, {}};
    hash_together(x);
}

// Four chunks, one group of four lanes of V.
template <class V>
[[gnu::always_inline]] inline void hash_4(const std::uint8_t* const* in,
                                          std::uint8_t* const* out) {
    Lanes<V> x{in, out, {}, {}, {}};
    hash_together(x);
}

// Nine chunks (a hand's): two groups of four lanes of V and a scalar one, side by side.
// With AVX-512 this took 0.85 of the time of four, then four beside one, and of eight
// lanes in 512-bit registers beside one; with AVX2 about the same as four, then four
// beside one (an AMD Zen 4: TSC ticks, the best of 30,000 calls each).
template <class V>
[[gnu::always_inline]] inline void hash_9(const std::uint8_t* const* in,
                                          std::uint8_t* const* out) {
    Lanes<V> x{in, out, {}, {}, {}};
    Lanes<V> y{in + 4, out + 4, {}, {}, {}};
    Lanes<std::uint64_t> z{in + 8, out + 8, {}, {}, {}};
    hash_together(x, y, z);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define REPLAY_AUDIT_SHA512_VECTORS 1
// Four 64-bit lanes in 256-bit registers (GCC vector extensions), compiled for AVX2 or
// for AVX-512 in the functions below only, and run only where the processor has it
// (processor_code).  AVX-512's forms on these registers (VL) rotate in one instruction
// where AVX2 takes three, and take any function of three inputs (the rounds' Ch, Maj
// and three-way xors) in one.  Its 512-bit registers are not used: eight lanes there
// were slower than two groups of four (hash_9), and some Intel processors lower their
// clock while running them.
typedef std::uint64_t U64x4 __attribute__((vector_size(32)));

__attribute__((target("avx2"))) void hash_4_avx2(const std::uint8_t* const* in,
                                                 std::uint8_t* const* out) {
    hash_4<U64x4>(in, out);
}

__attribute__((target("avx2"))) void hash_9_avx2(const std::uint8_t* const* in,
                                                 std::uint8_t* const* out) {
    hash_9<U64x4>(in, out);
}

__attribute__((target("avx512f,avx512vl"))) void hash_4_avx512(const std::uint8_t* const* in,
                                                               std::uint8_t* const* out) {
    hash_4<U64x4>(in, out);
}

__attribute__((target("avx512f,avx512vl"))) void hash_9_avx512(const std::uint8_t* const* in,
                                                               std::uint8_t* const* out) {
    hash_9<U64x4>(in, out);
}

Sha512Code processor_code() {
    static const Sha512Code code = [] {
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
            return Sha512Code::kAvx512;
        return __builtin_cpu_supports("avx2") ? Sha512Code::kAvx2 : Sha512Code::kScalar;
    }();
    return code;
}
#endif

}  // namespace

Sha512Code sha512_128_code(Sha512Code best) {
#ifdef REPLAY_AUDIT_SHA512_VECTORS
    return best < processor_code() ? best : processor_code();
#else
    (void)best;
    return Sha512Code::kScalar;
#endif
}

void sha512_128(const std::uint8_t* data, std::size_t count, std::uint8_t* out, Sha512Code best) {
    const std::uint8_t* in[9];
    std::uint8_t* to[9];
    std::size_t c = 0;
    // The next ``n`` chunks' places in ``in`` and ``to``.
    auto take = [&](std::size_t n) {
        for (std::size_t l = 0; l < n; ++l) {
            in[l] = data + 128 * (c + l);
            to[l] = out + kSha512DigestBytes * (c + l);
        }
        c += n;
    };
#ifdef REPLAY_AUDIT_SHA512_VECTORS
    const Sha512Code code = sha512_128_code(best);
    const bool avx512 = code == Sha512Code::kAvx512;
    while (code != Sha512Code::kScalar && count - c >= 9) {
        take(9);
        avx512 ? hash_9_avx512(in, to) : hash_9_avx2(in, to);
    }
    while (code != Sha512Code::kScalar && count - c >= 4) {
        take(4);
        avx512 ? hash_4_avx512(in, to) : hash_4_avx2(in, to);
    }
#else
    (void)best;
#endif
    while (count - c >= 1) {
        take(1);
        hash_1(in, to);
    }
}

void sha512(const std::uint8_t* data, std::size_t len, std::uint8_t* out) {
    std::uint64_t state[8];
    std::memcpy(state, kInitial, sizeof state);
    const std::size_t full = len / 128;
    for (std::size_t i = 0; i < full; ++i) compress(state, data + 128 * i);
    // Padding (5.1.2): a one bit, zeros, then the message length in bits as a
    // 128-bit big-endian number, filling one or two final blocks.
    std::uint8_t tail[256] = {};
    const std::size_t rest = len - 128 * full;
    if (rest != 0) std::memcpy(tail, data + 128 * full, rest);
    tail[rest] = 0x80;
    const std::size_t tail_len = rest + 1 + 16 <= 128 ? 128 : 256;
    store_be64(tail + tail_len - 16, static_cast<std::uint64_t>(len) >> 61);
    store_be64(tail + tail_len - 8, static_cast<std::uint64_t>(len) << 3);
    compress(state, tail);
    if (tail_len == 256) compress(state, tail + 128);
    for (int i = 0; i < 8; ++i) store_be64(out + 8 * i, state[i]);
}

}  // namespace replay_audit::core

#undef REPLAY_AUDIT_SHA512_VECTORS  // this file's alone (a unity build goes on after it)
