// SHA-512 (FIPS 180-4), self-contained: the wall needs nine digests of 128 bytes per hand,
// and a build that must not depend on a crypto library being installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace replay_audit::core {

constexpr std::size_t kSha512DigestBytes = 64;

// The SHA-512 digest of ``len`` bytes at ``data``, written to ``out`` (64 bytes).
void sha512(const std::uint8_t* data, std::size_t len, std::uint8_t* out);

// The digests of ``count`` messages of 128 bytes each, laid end to end at ``data``,
// written end to end to ``out`` (64 bytes each): ``sha512`` of each, with the padding
// block's schedule precomputed, four at a time in AVX2 registers where the processor
// has them (``wide``; false: never) and two at a time otherwise (the wall's nine
// digests per hand).
void sha512_128(const std::uint8_t* data, std::size_t count, std::uint8_t* out,
                bool wide = true);

}  // namespace replay_audit::core
