// SHA-512 (FIPS 180-4), self-contained: the wall needs nine digests of 128 bytes per hand,
// and a build that must not depend on a crypto library being installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace replay_audit::core {

constexpr std::size_t kSha512DigestBytes = 64;

// The SHA-512 digest of ``len`` bytes at ``data``, written to ``out`` (64 bytes).
void sha512(const std::uint8_t* data, std::size_t len, std::uint8_t* out);

// Which code hashes the 128-byte chunks below: plain C++, or one of two compiled
// for a newer instruction set and run only where the processor has it.
enum class Sha512Code : int { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

// The digests of ``count`` messages of 128 bytes each, laid end to end at ``data``,
// written end to end to ``out`` (64 bytes each): ``sha512`` of each, with the padding
// block's schedule precomputed and several chunks hashed side by side (the wall's nine
// per hand in one go), by the best code the processor runs up to ``best`` (the tests
// hold each to hashlib).
void sha512_128(const std::uint8_t* data, std::size_t count, std::uint8_t* out,
                Sha512Code best = Sha512Code::kAvx512);

// The code ``sha512_128`` runs here when asked for ``best``.
Sha512Code sha512_128_code(Sha512Code best = Sha512Code::kAvx512);

}  // namespace replay_audit::core
