// Tenhou's wall rebuilt from the game's seed: the C++ twin of replay_audit/wall.py.
//
// A wall record is the tiles in draw order (``tiles[0]`` is the first tile dealt),
// one byte per tile id (136 in four-player, 108 in three-player), then the two
// dice (1-6).  The seed forms and positions are described in replay_audit/wall.py.
//
// The parsers accept the canonical text of the seed forms only (ASCII, exact
// lengths, plain hex digits).  Anything else is *declined* with a non-zero code,
// and the caller falls back to the Python implementation, which either rebuilds
// the wall (e.g. a hex word written with a "0x" prefix, which Python's ``int``
// accepts) or raises its own ValueError.  So a declined seed costs speed, never a
// different answer; tests/test_core_wall.py holds the two to that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mt19937.hpp"

namespace replay_audit::core {

constexpr int kMaxWallTiles = 136;

// Tiles in a wall of ``players`` players (136 or 108), or 0 for another count.
constexpr int wall_tiles(int players) {
    return players == 4 ? 136 : players == 3 ? 108 : 0;
}

// Bytes of one wall record: the tiles, then the two dice.
constexpr int wall_record_bytes(int players) {
    return wall_tiles(players) == 0 ? 0 : wall_tiles(players) + 2;
}

// Why the wall code declines a seed (0: it does not); the codes are what it returns.
enum WallStatus : int {
    kOk = 0,
    kBadPlayers = 1,
    kBadHands = 2,
    kUnknownForm = 3,  // not a SHUFFLE form (INIT "mt19937ar", simulator floats, ...)
    kBadKey = 4,       // a known form whose key is not in its canonical text
};

// A short English reason for a non-zero code.
const char* declined_reason(int code);

// The walls of one game from its SHUFFLE seed (``mt19937ar-sha512-n288-base64,...``
// or ``mt19937ar-sha512-n288,...``), hand after hand: one generator for the game.
class SeedWalls {
public:
    // Reads the seed; kOk, or the code of a declined seed (then ``next`` must not run).
    int start(std::string_view seed, int players);
    // The next hand's wall record (``wall_record_bytes(players)`` bytes).
    void next(std::uint8_t* out);
    int players() const { return players_; }
    // The 2009 hex form: its dead-wall stacks are read bottom first.
    bool flipped() const { return flipped_; }

private:
    Mt19937 mt_;
    int players_ = 0;
    bool flipped_ = false;
};

// The walls of the first ``hands`` hands of a game from its SHUFFLE seed
// (``mt19937ar-sha512-n288-base64,...`` or ``mt19937ar-sha512-n288,...``),
// written to ``out`` (``hands * wall_record_bytes(players)`` bytes).  ``flipped``
// is set for the 2009 hex form, whose dead-wall stacks are read bottom first.
int seed_walls(std::string_view seed, int players, long hands, std::uint8_t* out, bool* flipped);

// The wall of one hand from a mid-2009 INIT ``shuffle="mt19937ar,<hex words>"``
// (always flipped), written to ``out`` (``wall_record_bytes(players)`` bytes).
int init_shuffle_wall(std::string_view shuffle, int players, std::uint8_t* out);

// ``count`` outputs of MT19937 seeded by init_by_array(key) (for the tests: drawn by
// ``next`` and by ``fill`` in turns).
void mt19937_outputs(const std::uint32_t* key, std::size_t key_len, std::size_t count,
                     std::uint32_t* out);

}  // namespace replay_audit::core
