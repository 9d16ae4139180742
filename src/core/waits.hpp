// Complete hands and waits over the 34 kinds: replay_audit/scoring/agari.py's
// ``is_complete`` and replay_audit/replay/waits.py's ``wait_mask``, with the same answers.
//
// Hands are 34 counts (kinds 0-33, melds already removed: any number of sets).  The
// seven-pairs and kokushi shapes are scoring_decompose.cpp's (is_chiitoitsu, is_kokushi: one rule
// in one place); the regular shape (sets and one pair) is a yes/no test here, suit by
// suit, because scoring_decompose.cpp's suit_splits lists every reading of a suit, which is far
// more than the replay needs to know at each riichi, ron and exhaustive draw.
#pragma once

#include <cstdint>

namespace replay_audit::core {

constexpr int kNumKinds = 34;

// Bit k of a wait mask: kind k.  kWaitDeclined: the input is not what the Python code
// reads the usual way (a count above 4, a tile id outside 0-135); the caller asks Python.
constexpr std::int64_t kWaitDeclined = -1;

// agari.is_regular_complete: sets and exactly one pair.
bool is_regular_complete(const std::uint8_t* counts);

// agari.is_complete: regular, seven distinct pairs or kokushi.
bool is_complete(const std::uint8_t* counts);

// waits.wait_mask: the kinds k, held fewer than four times, such that one more tile of
// kind k makes the hand complete (Tenhou's tenpai: the mask is not zero).
std::uint64_t wait_mask(const std::uint8_t* counts);

// wait_mask(counts) != 0 (tenpai), its search stopped at the first wait found: what a
// riichi discard asks (replay.cpp), for about half the work.
bool has_wait(const std::uint8_t* counts);

// counts34 of tile ids 0-135 into ``counts`` (34 entries); false (counts undefined)
// when an id is outside 0-135 or a kind comes more than four times.
bool count_tiles(const long* ids, long n, std::uint8_t* counts);

}  // namespace replay_audit::core
