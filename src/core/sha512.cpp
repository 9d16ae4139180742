// SHA-512 written from FIPS 180-4 (sections 4.1.3, 4.2.3, 5.1.2, 5.3.5, 6.4).
// The constants were generated from their definition (fractional parts of the cube and
// square roots of the first primes) and the digest is checked against Python's hashlib
// in tests/test_core_wall.py.
#include "sha512.hpp"

#include <cstring>

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

// ``Lanes`` independent 128-byte messages at once: their rounds interleaved in one loop,
// so the processor overlaps the lanes' dependency chains (each round waits on the one
// before it).  The second block of each is the constant padding block (kPad128).
template <int Lanes>
void sha512_128_lanes(const std::uint8_t* const* data, std::uint8_t* const* out) {
    std::uint64_t w[Lanes][80];
    std::uint64_t st[Lanes][8];
    for (int l = 0; l < Lanes; ++l) {
        for (int t = 0; t < 16; ++t) w[l][t] = load_be64(data[l] + 8 * t);
        expand_schedule(w[l]);
        for (int i = 0; i < 8; ++i) st[l][i] = kInitial[i];
    }
    for (int block = 0; block < 2; ++block) {
        std::uint64_t v[Lanes][8];
        for (int l = 0; l < Lanes; ++l)
            for (int i = 0; i < 8; ++i) v[l][i] = st[l][i];
        for (int t = 0; t < 80; ++t) {
            for (int l = 0; l < Lanes; ++l) {
                std::uint64_t* x = v[l];
                const std::uint64_t kw = block == 0 ? kRound[t] + w[l][t] : kPad128.kw[t];
                const std::uint64_t e = x[4];
                const std::uint64_t t1 = x[7] + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) +
                                         ((e & x[5]) ^ (~e & x[6])) + kw;
                const std::uint64_t a = x[0];
                const std::uint64_t t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) +
                                         ((a & x[1]) ^ (a & x[2]) ^ (x[1] & x[2]));
                x[7] = x[6];
                x[6] = x[5];
                x[5] = e;
                x[4] = x[3] + t1;
                x[3] = x[2];
                x[2] = x[1];
                x[1] = a;
                x[0] = t1 + t2;
            }
        }
        for (int l = 0; l < Lanes; ++l)
            for (int i = 0; i < 8; ++i) st[l][i] += v[l][i];
    }
    for (int l = 0; l < Lanes; ++l)
        for (int i = 0; i < 8; ++i) store_be64(out[l] + 8 * i, st[l][i]);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define REPLAY_AUDIT_SHA512_AVX2 1
// Four 128-byte messages in the four 64-bit lanes of AVX2 registers (GCC vector
// extensions, compiled for AVX2 in this function only and run only where the
// processor has it): the same rounds as sha512_128_lanes, one instruction for four.
typedef std::uint64_t U64x4 __attribute__((vector_size(32)));

__attribute__((target("avx2"))) inline U64x4 rotr4(U64x4 x, int n) {
    return (x >> n) | (x << (64 - n));
}

__attribute__((target("avx2"))) void sha512_128_avx2(const std::uint8_t* const* data,
                                                      std::uint8_t* const* out) {
    U64x4 w[80];
    for (int t = 0; t < 16; ++t) {
        w[t] = U64x4{load_be64(data[0] + 8 * t), load_be64(data[1] + 8 * t),
                     load_be64(data[2] + 8 * t), load_be64(data[3] + 8 * t)};
    }
    for (int t = 16; t < 80; ++t) {
        const U64x4 a = w[t - 15], b = w[t - 2];
        w[t] = w[t - 16] + (rotr4(a, 1) ^ rotr4(a, 8) ^ (a >> 7)) + w[t - 7] +
               (rotr4(b, 19) ^ rotr4(b, 61) ^ (b >> 6));
    }
    U64x4 st[8];
    for (int i = 0; i < 8; ++i) st[i] = U64x4{} + kInitial[i];
    for (int block = 0; block < 2; ++block) {
        U64x4 a = st[0], b = st[1], c = st[2], d = st[3];
        U64x4 e = st[4], f = st[5], g = st[6], h = st[7];
        for (int t = 0; t < 80; ++t) {
            const U64x4 kw = block == 0 ? w[t] + kRound[t] : U64x4{} + kPad128.kw[t];
            const U64x4 t1 = h + (rotr4(e, 14) ^ rotr4(e, 18) ^ rotr4(e, 41)) +
                             ((e & f) ^ (~e & g)) + kw;
            const U64x4 t2 = (rotr4(a, 28) ^ rotr4(a, 34) ^ rotr4(a, 39)) +
                             ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        st[0] += a;
        st[1] += b;
        st[2] += c;
        st[3] += d;
        st[4] += e;
        st[5] += f;
        st[6] += g;
        st[7] += h;
    }
    for (int l = 0; l < 4; ++l)
        for (int i = 0; i < 8; ++i) store_be64(out[l] + 8 * i, st[i][l]);
}

bool have_avx2() {
    static const bool have = __builtin_cpu_supports("avx2");
    return have;
}
#endif

}  // namespace

void sha512_128(const std::uint8_t* data, std::size_t count, std::uint8_t* out, bool wide) {
    std::size_t c = 0;
#ifdef REPLAY_AUDIT_SHA512_AVX2
    if (wide && have_avx2()) {
        for (; c + 4 <= count; c += 4) {
            const std::uint8_t* in[4] = {data + 128 * c, data + 128 * (c + 1),
                                         data + 128 * (c + 2), data + 128 * (c + 3)};
            std::uint8_t* to[4] = {out + 64 * c, out + 64 * (c + 1), out + 64 * (c + 2),
                                   out + 64 * (c + 3)};
            sha512_128_avx2(in, to);
        }
    }
#endif
    for (; c + 2 <= count; c += 2) {
        const std::uint8_t* in[2] = {data + 128 * c, data + 128 * (c + 1)};
        std::uint8_t* to[2] = {out + kSha512DigestBytes * c, out + kSha512DigestBytes * (c + 1)};
        sha512_128_lanes<2>(in, to);
    }
    for (; c < count; ++c) {
        const std::uint8_t* in[1] = {data + 128 * c};
        std::uint8_t* to[1] = {out + kSha512DigestBytes * c};
        sha512_128_lanes<1>(in, to);
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
