// Tenhou mjlog XML -> the columnar tables of game.hpp: the C++ twin of
// replay_audit/parsers/tenhou_xml.py, for the documents that reader accepts.
//
// The reader accepts a strict subset of XML, the one Tenhou writes: the root
// <mjloggm ...> opening the document at its first byte, flat self-closing children,
// attribute values in ASCII without '&', '<' or control characters, whitespace only
// between elements.  Within it, it checks what the Python reader checks (tile ids that
// exist in the game's tile set, seats, deal sizes, repeated ids, value counts) and
// builds the same values.  Anything else -- a DOCTYPE or ENTITY declaration, a comment,
// an XML declaration, an entity reference, non-ASCII bytes, an unknown tag or
// attribute, a 2006 stepless REACH, a truncated document, a value out of its domain,
// input over the size limits -- is *declined*: read_mjlog returns false with a reason,
// and the caller hands the bytes to the Python reader, which accepts them or raises its
// own error.  So a decline costs speed, never a different answer; declining is also how
// the reader "refuses" what the Python reader refuses.  tests/test_core_mjlog.py holds
// the two readers together over the shared corpus and over mutated documents.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "game.hpp"

namespace replay_audit::core::mjlog {

constexpr std::size_t kMaxInputBytes = 64u << 20;  // larger documents go to Python

// The limits a stranger's document must keep: the Python reader's (its ``limits``
// module), which it hands over on every call so the two can never differ.
struct Limits {
    int max_elements = 200000;                 // tenhou_xml.limits.MAX_ELEMENTS
    std::size_t max_attribute_length = 65536;  // tenhou_xml.limits.MAX_ATTRIBUTE_LENGTH
};
constexpr int kToutenkou = 112;                    // tile-set key of a Toutenkou game

// Reads one mjlog document (decompressed).  True and ``out`` filled, or false with
// ``reason`` saying why the reader declined (``out`` is then unspecified).  ``out`` is
// cleared first (GameTables::clear), so one can be reused, its columns' room kept.
bool read_mjlog(std::string_view data, GameTables* out, std::string* reason,
                const Limits& limits = Limits{});

// decode_meld of replay_audit/parsers/meld_code.py: false where that raises.
bool decode_meld(long long m, int who, bool gari, DecodedMeld* out);

}  // namespace replay_audit::core::mjlog
