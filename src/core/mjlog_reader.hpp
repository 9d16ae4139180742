// The mjlog reader's state (internal): one document scanned into GameTables.  Its
// members are split by job over two files, mjlog.cpp (the scan loop, the tile tags that
// are ~90% of a log, and the dispatch of the rest) and mjlog_tags.cpp (INIT, N, REACH,
// AGARI, RYUUKYOKU, UN/BYE and the header tags), so it is declared here once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "mjlog.hpp"
#include "mjlog_scan.hpp"

namespace replay_audit::core::mjlog::detail {

class Reader {
public:
    Reader(std::string_view data, GameTables& g, const Limits& limits)
        : d_(data), g_(g), limits_(limits) {}

    void read();

private:
    std::string_view d_;
    std::size_t p_ = 0;
    GameTables& g_;
    Limits limits_;
    bool valid_[136] = {};
    bool in_hands_ = false;
    std::int32_t hand_ = -1;
    int last_draw_[4] = {-1, -1, -1, -1};
    bool result_seen_ = false;
    std::vector<Pending> between_;

    // The scan (mjlog.cpp): tokens, tile tags, the dispatch of the others.
    void set_tile_set(int tile_set);
    // Parses the tag at d_[p_] == '<'; true if it is an open tag (not self-closing).
    bool parse_tag(Tag& tag);
    void end_root();
    // <T12/> and the like, the ~90% case.  False (nothing consumed) if not that form.
    bool fast_tile(std::int32_t index);
    // A draw or discard tag: true if handled, false if ``letter`` is no tile letter.
    bool tile_event(char letter, std::string_view digits, int tile, std::int32_t index);
    int seat(std::string_view value, const char* what);
    // A tile list as the Python reader's _tiles: "" is empty; ids must exist, no repeat.
    Span tiles(std::string_view value, const char* what);
    Span ints(std::string_view value, const char* what, bool empty_is_empty);
    void element(Tag& tag, std::int32_t index);
    void finish();

    // The tags of a hand and of the header (mjlog_tags.cpp).
    void header(Tag& tag, std::int32_t index);
    // UN: a reconnect (one name; true and ``event`` set) or the player list.
    bool un(Tag& tag, std::int32_t index, Pending* event);
    void push_pending(const Pending& e);
    void connection(const Pending& e);
    void flush_between();
    void close_hand();
    void init(Tag& tag, std::int32_t index);
    std::int32_t meld(long long m, int who);
    void reach(Tag& tag, std::int32_t index);
    void pair(std::string_view value, std::vector<std::int32_t>& a, std::vector<std::int32_t>& b);
    // sc: scores and deltas in points; chips (before, deltas) in the 16-value form.
    void sc(std::string_view value, std::vector<std::int32_t>& scores, std::vector<std::int32_t>& deltas,
            std::vector<std::int8_t>& has_chips, std::vector<std::int32_t>& chips,
            std::vector<std::int32_t>& chip_deltas);
    // owari (row of owari, or -1) and ratio (index of strings, or -1); a result seen.
    void result_tail(Tag& tag, std::vector<std::int32_t>& owari, std::vector<std::int32_t>& ratio);
    void agari(Tag& tag, std::int32_t index);
    void ryuukyoku(Tag& tag, std::int32_t index);
};

}  // namespace replay_audit::core::mjlog::detail
