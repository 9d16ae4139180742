// Tenhou mjlog XML -> columnar tables (see mjlog.hpp for what is accepted and
// declined, and replay_audit/parsers/tenhou_xml.py for the rules mirrored here).
// This file: the scan loop (Reader::read), the tokenizer (parse_tag), the tile tags
// and the dispatch of the other tags to mjlog_tags.cpp, and read_mjlog itself.
#include "mjlog.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "mjlog_reader.hpp"

namespace replay_audit::core::mjlog {

namespace detail {

void Reader::read() {
    if (d_.size() > kMaxInputBytes) decline("input over the size limit");
    if (d_.substr(0, 8) != "<mjloggm") decline("does not start with <mjloggm");
    Tag root;
    if (!parse_tag(root)) decline("the root element is empty");
    if (root.name != "mjloggm") decline("root element is not mjloggm");
    if (const auto* ver = root.get("ver"); ver != nullptr && *ver != "2.3") {
        g_.meta_extra.emplace_back("mjloggm.ver", std::string(*ver));
    }
    root.all_read();
    set_tile_set(4);
    // room for one element in 12 bytes (a Phoenix log has ~1,000 in 15 kB), so one
    // allocation per column instead of a dozen regrowths (none with kept tables)
    g_.events.reserve(std::min(d_.size() / 12, std::size_t(limits_.max_elements)) + 16);
    std::int32_t index = 0;
    Tag tag;
    for (;;) {
        while (p_ < d_.size() && is_space(d_[p_])) ++p_;
        if (p_ >= d_.size()) decline("truncated: no </mjloggm>");
        if (d_[p_] != '<') decline("text content");
        if (p_ + 1 < d_.size() && d_[p_ + 1] == '/') {
            end_root();
            break;
        }
        if (index >= limits_.max_elements) decline("too many elements");
        if (in_hands_ && fast_tile(index)) {
            ++index;
            continue;
        }
        if (parse_tag(tag)) decline("an element with content (logs are flat)");
        element(tag, index);
        ++index;
    }
    finish();
}

void Reader::set_tile_set(int tile_set) {
    g_.tile_set = tile_set;
    for (int t = 0; t < 136; ++t) {
        const int k = t >> 2;
        bool missing = false;
        if (tile_set == 3) missing = k >= 1 && k <= 7;
        if (tile_set == kToutenkou) missing = k >= 1 && k <= 7 && k != 4;
        valid_[t] = !missing;
    }
}

// Parses the tag at d_[p_] == '<'; true if it is an open tag (not self-closing).
bool Reader::parse_tag(Tag& tag) {
    const std::size_t n = d_.size();
    ++p_;
    if (p_ >= n || !is_alpha(d_[p_])) decline("'<' not followed by a tag name");
    const std::size_t start = p_;
    while (p_ < n && is_name(d_[p_])) ++p_;
    tag.name = d_.substr(start, p_ - start);
    tag.count = 0;
    for (;;) {
        bool space = false;
        while (p_ < n && is_space(d_[p_])) {
            ++p_;
            space = true;
        }
        if (p_ >= n) decline("truncated inside a tag");
        const char c = d_[p_];
        if (c == '/') {
            if (p_ + 1 < n && d_[p_ + 1] == '>') {
                p_ += 2;
                return false;
            }
            decline("'/' not followed by '>'");
        }
        if (c == '>') {
            ++p_;
            return true;
        }
        if (!space || !is_alpha(c)) decline("bad attribute syntax");
        const std::size_t a = p_;
        while (p_ < n && is_name(d_[p_])) ++p_;
        const std::string_view name = d_.substr(a, p_ - a);
        while (p_ < n && is_space(d_[p_])) ++p_;
        if (p_ >= n || d_[p_] != '=') decline("attribute without '='");
        ++p_;
        while (p_ < n && is_space(d_[p_])) ++p_;
        if (p_ >= n || (d_[p_] != '"' && d_[p_] != '\'')) decline("unquoted attribute");
        const char quote = d_[p_++];
        const std::size_t v = p_;
        for (;;) {
            while (p_ < n && in_class(d_[p_], kPlain)) ++p_;
            if (p_ >= n) decline("truncated inside an attribute");
            const char ch = d_[p_];
            if (ch == quote) break;
            if (ch != '"' && ch != '\'') {  // a control, non-ASCII, '<' or '&'
                decline("an attribute value with a character the reader leaves to lxml");
            }
            ++p_;  // the other quote, plain here
        }
        if (p_ - v > limits_.max_attribute_length) decline("attribute over the length limit");
        const std::string_view value = d_.substr(v, p_ - v);
        ++p_;
        for (int i = 0; i < tag.count; ++i) {
            if (tag.attrs[i].name == name) decline("duplicate attribute");
        }
        if (tag.count == kMaxAttrs) decline("too many attributes");
        tag.attrs[tag.count++] = Attr{name, value, false};
    }
}

void Reader::end_root() {
    p_ += 2;
    if (d_.substr(p_, 7) != "mjloggm") decline("closing tag is not </mjloggm>");
    p_ += 7;
    while (p_ < d_.size() && is_space(d_[p_])) ++p_;
    if (p_ >= d_.size() || d_[p_] != '>') decline("bad closing tag");
    ++p_;
    while (p_ < d_.size() && is_space(d_[p_])) ++p_;
    if (p_ != d_.size()) decline("content after </mjloggm>");
}

// <T12/> and the like, the ~90% case.  False (nothing consumed) if not that form.
bool Reader::fast_tile(std::int32_t index) {
    const std::size_t n = d_.size();
    if (p_ + 3 >= n) return false;
    const char letter = d_[p_ + 1];
    if (!is_digit(d_[p_ + 2])) return false;
    std::size_t q = p_ + 2;
    int tile = 0;
    while (q < n && is_digit(d_[q]) && q - p_ < 6) tile = tile * 10 + (d_[q++] - '0');
    if (q + 1 >= n || d_[q] != '/' || d_[q + 1] != '>') return false;
    if (!tile_event(letter, d_.substr(p_ + 2, q - p_ - 2), tile, index)) return false;
    p_ = q + 2;
    return true;
}

// A draw or discard tag: true if handled, false if ``letter`` is no tile letter.
bool Reader::tile_event(char letter, std::string_view digits, int tile, std::int32_t index) {
    // T-W draw (seats 0-3), D-G discard (seats 0-3)
    bool draw = true;
    int seat;
    switch (letter) {
        case 'T': case 'U': case 'V': case 'W':
            seat = letter - 'T';
            break;
        case 'D': case 'E': case 'F': case 'G':
            seat = letter - 'D';
            draw = false;
            break;
        default:
            return false;
    }
    if ((digits.size() > 1 && digits[0] == '0') || tile > 135 || !valid_[tile]) {
        decline("tile tag of a tile id that does not exist in this game");
    }
    if (!in_hands_) decline("a tile tag before the first INIT");
    if (draw) {
        g_.events.push(hand_, index, kDraw, static_cast<std::int8_t>(seat),
                       static_cast<std::int16_t>(tile), 0, -1);
        last_draw_[seat] = tile;
    } else {
        const bool tsumogiri = tile == last_draw_[seat];
        g_.events.push(hand_, index, kDiscard, static_cast<std::int8_t>(seat),
                       static_cast<std::int16_t>(tile), tsumogiri ? 1 : 0, -1);
        last_draw_[seat] = -1;
    }
    return true;
}

int Reader::seat(std::string_view value, const char* what) {
    const long long s = to_int(value, what);
    if (s < 0 || s >= g_.players) decline(std::string("seat out of range: ") + what);
    return static_cast<int>(s);
}

// A tile list as the Python reader's _tiles: "" is empty; ids must exist, no repeat.
Span Reader::tiles(std::string_view value, const char* what) {
    Span span{static_cast<std::int32_t>(g_.pool.size()), 0};
    if (value.empty()) return span;
    bool seen[136] = {};
    each_part(value, [&](std::string_view part) {
        const long long t = to_int(part, what);
        if (t < 0 || t > 135 || !valid_[t]) decline(std::string("tile id that does not exist: ") + what);
        if (seen[t]) decline(std::string("a tile id twice: ") + what);
        seen[t] = true;
        g_.pool.push_back(static_cast<std::int32_t>(t));
    });
    span.length = static_cast<std::int32_t>(g_.pool.size()) - span.offset;
    return span;
}

Span Reader::ints(std::string_view value, const char* what, bool empty_is_empty) {
    Span span{static_cast<std::int32_t>(g_.pool.size()), 0};
    if (empty_is_empty && value.empty()) return span;
    each_part(value, [&](std::string_view part) {
        g_.pool.push_back(to_i32(to_int(part, what), what));
    });
    span.length = static_cast<std::int32_t>(g_.pool.size()) - span.offset;
    return span;
}

void Reader::element(Tag& tag, std::int32_t index) {
    const std::string_view name = tag.name;
    if (!name.empty() && is_digit(name.size() > 1 ? name[1] : 'x')) {
        // a tile tag in the general form (<T12 />, or with attributes)
        std::size_t i = 1;
        int tile = 0;
        while (i < name.size() && is_digit(name[i]) && i < 6) tile = tile * 10 + (name[i++] - '0');
        if (i == name.size() && tag.count == 0 && in_hands_ &&
            tile_event(name[0], name.substr(1), tile, index)) {
            return;
        }
        decline("a tile tag the reader leaves to Python");
    }
    if (name == "INIT") {
        init(tag, index);
        return;
    }
    if (!in_hands_) {
        header(tag, index);
        return;
    }
    if (name == "N") {
        const int who = seat(tag.need("who"), "who");
        const long long m = to_int(tag.need("m"), "m");
        tag.all_read();
        const std::int32_t row = meld(m, who);
        g_.events.push(hand_, index, kCall, static_cast<std::int8_t>(who), -1, 0, row);
        last_draw_[who] = -1;
    } else if (name == "REACH") {
        reach(tag, index);
    } else if (name == "DORA") {
        const Span s = tiles(tag.need("hai"), "DORA hai");
        tag.all_read();
        if (s.length != 1) decline("DORA hai is not one tile");
        const std::int32_t tile = g_.pool[s.offset];
        g_.pool.resize(s.offset);
        g_.events.push(hand_, index, kNewDora, -1, static_cast<std::int16_t>(tile), 0, -1);
    } else if (name == "AGARI") {
        flush_between();
        agari(tag, index);
    } else if (name == "RYUUKYOKU") {
        flush_between();
        ryuukyoku(tag, index);
    } else if (name == "BYE") {
        const int who = seat(tag.need("who"), "who");
        tag.all_read();
        connection(Pending{index, kDisconnect, static_cast<std::int8_t>(who), -1});
    } else if (name == "UN") {
        Pending event;
        if (un(tag, index, &event)) connection(event);
    } else {
        decline("unknown tag <" + std::string(name) + ">");
    }
}

void Reader::finish() {
    if (!in_hands_) decline("no hand");
    for (const Pending& e : between_) push_pending(e);  // trailing BYE/UN: the last hand's
    between_.clear();
    close_hand();
    if (!g_.player_list.present) decline("no player list");
}

}  // namespace detail

bool read_mjlog(std::string_view data, GameTables* out, std::string* reason,
                const Limits& limits) {
    out->clear();
    try {
        detail::Reader reader(data, *out, limits);
        reader.read();
    } catch (const detail::Decline& d) {
        if (reason != nullptr) *reason = d.why;
        return false;
    }
    return true;
}

}  // namespace replay_audit::core::mjlog
