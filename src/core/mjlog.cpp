// Tenhou mjlog XML -> columnar tables (see mjlog.hpp for what is accepted and
// declined, and replay_audit/parsers/tenhou_xml.py for the rules mirrored here).
#include "mjlog.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace replay_audit::core::mjlog {

namespace {

// Thrown inside the reader only; read_mjlog turns it into ``false``.
struct Decline {
    std::string why;
};

[[noreturn]] void decline(std::string why) { throw Decline{std::move(why)}; }

constexpr const char* kDrawKinds[] = {"exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4"};
constexpr int kNumDrawKinds = 7;
constexpr int kMaxAttrs = 24;

// Character classes, one table lookup each (the scanner's inner loops).
enum : unsigned char { kSpace = 1, kAlpha = 2, kName = 4, kPlain = 8 };

struct CharClasses {
    unsigned char of[256] = {};
    constexpr CharClasses() {
        for (int c : {' ', '\t', '\n', '\r'}) of[c] = kSpace;
        for (int c = 'A'; c <= 'Z'; ++c) of[c] = kAlpha | kName;
        for (int c = 'a'; c <= 'z'; ++c) of[c] = kAlpha | kName;
        for (int c = '0'; c <= '9'; ++c) of[c] = kName;
        of[int('_')] = kName;
        // kPlain: may stand in an attribute value and ends none (not a quote)
        for (int c = 0x20; c < 0x7f; ++c) {
            if (c != '<' && c != '&' && c != '"' && c != '\'') of[c] |= kPlain;
        }
    }
};
constexpr CharClasses kClasses;

inline bool in_class(char c, unsigned char cls) {
    return (kClasses.of[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool is_space(char c) { return in_class(c, kSpace); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return in_class(c, kAlpha); }
inline bool is_name(char c) { return in_class(c, kName); }

// -?[0-9]{1,18}: what Python's int() reads the same way (no sign '+', no spaces,
// no underscores, which int() would also accept: those are declined).
bool parse_int(std::string_view s, long long* out) {
    std::size_t i = 0;
    bool neg = false;
    if (i < s.size() && s[i] == '-') {
        neg = true;
        ++i;
    }
    if (i == s.size() || s.size() - i > 18) return false;
    long long v = 0;
    for (; i < s.size(); ++i) {
        if (!is_digit(s[i])) return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

long long to_int(std::string_view s, const char* what) {
    long long v;
    if (!parse_int(s, &v)) decline(std::string("not an integer: ") + what);
    return v;
}

std::int32_t to_i32(long long v, const char* what) {
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
        decline(std::string("out of range: ") + what);
    return static_cast<std::int32_t>(v);
}

// -?[0-9]+(\.[0-9]+)? with at most 15 digits in all: the value is then the mantissa
// (an integer below 2^53, exact as a double) divided by a power of ten up to 10^15
// (exact too), and IEEE division rounds that quotient correctly: the double Python's
// float() gives for the same text.  No strtod, whose decimal point follows the C
// locale.  Longer or other forms (exponents, "inf", "1.") are declined.
double to_float(std::string_view s, const char* what) {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    std::size_t i = 0;
    const bool neg = i < s.size() && s[i] == '-';
    if (neg) ++i;
    long long mantissa = 0;
    int digits = 0, fraction = 0;
    bool ok = i < s.size() && is_digit(s[i]);
    for (; ok && i < s.size() && is_digit(s[i]); ++i, ++digits) mantissa = mantissa * 10 + (s[i] - '0');
    if (ok && i < s.size()) {
        ok = s[i] == '.' && i + 1 < s.size();
        for (++i; ok && i < s.size(); ++i, ++digits, ++fraction) {
            ok = is_digit(s[i]);
            mantissa = mantissa * 10 + (s[i] - '0');
        }
    }
    if (!ok || digits > 15) decline(std::string("not a plain decimal: ") + what);
    const double value = static_cast<double>(mantissa) / kPow10[fraction];
    return neg ? -value : value;
}

// Splits on ',' (an empty string gives one empty part, like Python's split).  The
// parts are a few characters each: a plain loop, not a memchr call per part.
template <class F>
void each_part(std::string_view s, F&& f) {
    const char* p = s.data();
    const char* const end = p + s.size();
    for (;;) {
        const char* comma = p;
        while (comma != end && *comma != ',') ++comma;
        f(std::string_view(p, static_cast<std::size_t>(comma - p)));
        if (comma == end) return;
        p = comma + 1;
    }
}

// The values of a comma-separated integer list, on the stack: every list int_list
// reads has a fixed or small size (a seed, scores, a hand's melds), so a longer one
// is declined rather than given a heap vector.
class IntList {
public:
    static constexpr std::size_t kCapacity = 32;
    std::size_t size() const { return n_; }
    long long operator[](std::size_t i) const { return v_[i]; }
    const long long* begin() const { return v_; }
    const long long* end() const { return v_ + n_; }
    void push(long long v) {
        if (n_ == kCapacity) decline("a list of more values than any the reader knows");
        v_[n_++] = v;
    }

private:
    long long v_[kCapacity];
    std::size_t n_ = 0;
};

IntList int_list(std::string_view s, const char* what) {
    IntList out;
    each_part(s, [&](std::string_view part) { out.push(to_int(part, what)); });
    return out;
}

struct Attr {
    std::string_view name;
    std::string_view value;
    bool used = false;
};

struct Tag {
    std::string_view name;
    Attr attrs[kMaxAttrs];
    int count = 0;

    // The value of ``key`` (marked as read), or nullptr.
    const std::string_view* get(std::string_view key) {
        for (int i = 0; i < count; ++i) {
            if (attrs[i].name == key) {
                attrs[i].used = true;
                return &attrs[i].value;
            }
        }
        return nullptr;
    }
    std::string_view need(std::string_view key) {
        const std::string_view* v = get(key);
        if (v == nullptr) decline("<" + std::string(name) + "> lacks " + std::string(key));
        return *v;
    }
    // Python keeps any attribute it does not know as raw text and warns: declined.
    void all_read() const {
        for (int i = 0; i < count; ++i) {
            if (!attrs[i].used) {
                decline("unknown attribute " + std::string(name) + "." + std::string(attrs[i].name));
            }
        }
    }
};

struct Pending {  // a BYE/UN after a hand's result, waiting for its place
    std::int32_t seq;
    std::int8_t kind;
    std::int8_t seat;
    std::int32_t ref;
};

class Reader {
public:
    Reader(std::string_view data, GameTables& g, const Limits& limits)
        : d_(data), g_(g), limits_(limits) {}

    void read() {
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

    void set_tile_set(int tile_set) {
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
    bool parse_tag(Tag& tag) {
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

    void end_root() {
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
    bool fast_tile(std::int32_t index) {
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
    bool tile_event(char letter, std::string_view digits, int tile, std::int32_t index) {
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

    int seat(std::string_view value, const char* what) {
        const long long s = to_int(value, what);
        if (s < 0 || s >= g_.players) decline(std::string("seat out of range: ") + what);
        return static_cast<int>(s);
    }

    // A tile list as the Python reader's _tiles: "" is empty; ids must exist, no repeat.
    Span tiles(std::string_view value, const char* what) {
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

    Span ints(std::string_view value, const char* what, bool empty_is_empty) {
        Span span{static_cast<std::int32_t>(g_.pool.size()), 0};
        if (empty_is_empty && value.empty()) return span;
        each_part(value, [&](std::string_view part) {
            g_.pool.push_back(to_i32(to_int(part, what), what));
        });
        span.length = static_cast<std::int32_t>(g_.pool.size()) - span.offset;
        return span;
    }

    void element(Tag& tag, std::int32_t index) {
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

    void header(Tag& tag, std::int32_t index) {
        const std::string_view name = tag.name;
        if (name == "SHUFFLE") {
            const auto* seed = tag.get("seed");
            g_.seed = seed != nullptr ? g_.add_string(*seed) : -1;
            const auto* ref = tag.get("ref");
            if (ref != nullptr && !ref->empty()) g_.meta_extra.emplace_back("SHUFFLE.ref", std::string(*ref));
            tag.all_read();
        } else if (name == "GO") {
            g_.go_type = to_int(tag.need("type"), "GO type");
            g_.has_go = true;
            g_.players = (g_.go_type & 0x10) ? 3 : 4;
            int tile_set = g_.players;
            if (g_.players == 3 && (g_.go_type & 0x800)) tile_set = kToutenkou;
            set_tile_set(tile_set);
            const auto* lobby = tag.get("lobby");
            g_.has_lobby = lobby != nullptr;
            if (lobby != nullptr) g_.lobby = to_int(*lobby, "GO lobby");
            for (const char* key : {"title", "rule", "ranking", "csrule"}) {
                if (const auto* v = tag.get(key); v != nullptr) g_.meta_extra.emplace_back(key, std::string(*v));
            }
            tag.all_read();
        } else if (name == "UN") {
            Pending event;
            if (un(tag, index, &event)) {
                g_.events.push(-1, event.seq, event.kind, event.seat, -1, 0, event.ref);
            }
        } else if (name == "BYE") {
            const int who = seat(tag.need("who"), "who");
            tag.all_read();
            g_.events.push(-1, index, kDisconnect, static_cast<std::int8_t>(who), -1, 0, -1);
        } else if (name == "TAIKYOKU") {
            if (const auto* oya = tag.get("oya"); oya != nullptr) {
                seat(*oya, "oya");
                if (*oya != "0") g_.meta_extra.emplace_back("TAIKYOKU.oya", std::string(*oya));
            }
            tag.all_read();
        } else {
            decline("unknown tag <" + std::string(name) + "> before the first INIT");
        }
    }

    // UN: a reconnect (one name; true and ``event`` set) or the player list.
    bool un(Tag& tag, std::int32_t index, Pending* event) {
        static constexpr std::string_view keys[4] = {"n0", "n1", "n2", "n3"};
        const std::string_view* names[4];
        int count = 0;
        for (int i = 0; i < 4; ++i) {
            names[i] = tag.get(keys[i]);
            count += names[i] != nullptr;
        }
        if (count == 1) {
            int who = 0;
            while (names[who] == nullptr) ++who;
            if (who >= g_.players) decline("UN seat out of range");
            tag.all_read();
            *event = Pending{index, kReconnect, static_cast<std::int8_t>(who), g_.add_string(*names[who])};
            return true;
        }
        if (count < 3) decline("UN with neither one name nor a list");
        if (g_.player_list.present) decline("a second player list");
        PlayerList& list = g_.player_list;
        list.present = true;
        for (int i = 0; i < 4; ++i) list.names[i] = names[i] != nullptr ? g_.add_string(*names[i]) : -1;
        if (const auto* dan = tag.get("dan"); dan != nullptr) {
            int_list(*dan, "UN dan");
            list.dan = g_.add_string(*dan);
        }
        if (const auto* rate = tag.get("rate"); rate != nullptr) {
            each_part(*rate, [](std::string_view part) { to_float(part, "UN rate"); });
            list.rate = g_.add_string(*rate);
        }
        if (const auto* sx = tag.get("sx"); sx != nullptr) list.sx = g_.add_string(*sx);
        if (const auto* gold = tag.get("gold"); gold != nullptr) list.gold = g_.add_string(*gold);
        if (const auto* rc = tag.get("rc"); rc != nullptr) list.rc = g_.add_string(*rc);
        tag.all_read();
        return false;
    }

    void push_pending(const Pending& e) { g_.events.push(hand_, e.seq, e.kind, e.seat, -1, 0, e.ref); }

    void connection(const Pending& e) {
        if (result_seen_) {
            between_.push_back(e);
        } else {
            push_pending(e);
        }
    }

    void flush_between() {
        for (const Pending& e : between_) push_pending(e);
        between_.clear();
    }

    void close_hand() {
        if (hand_ >= 0 && !result_seen_) decline("a hand without AGARI or RYUUKYOKU");
    }

    void init(Tag& tag, std::int32_t index) {
        close_hand();
        in_hands_ = true;
        Hands& h = g_.hands;
        const IntList seed = int_list(tag.need("seed"), "INIT seed");
        if (seed.size() != 6) decline("INIT seed has not 6 values");
        if (seed[0] < 0 || seed[1] < 0 || seed[2] < 0) decline("INIT seed negative");
        if (seed[3] < 0 || seed[3] > 5 || seed[4] < 0 || seed[4] > 5) decline("INIT dice");
        const IntList ten = int_list(tag.need("ten"), "INIT ten");
        if (ten.size() != 4) decline("INIT ten has not 4 values");
        const int dealer = seat(tag.need("oya"), "oya");
        // the deal: 13 tiles a seat (none for 3-player's fourth), ids valid, none twice
        bool seen[136] = {};
        std::int16_t haipai[52];
        for (int s = 0; s < 4; ++s) {
            const auto* raw = tag.get(std::string_view("hai0hai1hai2hai3").substr(4 * s, 4));
            int count = 0;
            if (raw != nullptr && !raw->empty()) {
                each_part(*raw, [&](std::string_view part) {
                    const long long t = to_int(part, "INIT hai");
                    if (t < 0 || t > 135 || !valid_[t] || seen[t] || count >= 13) decline("bad deal");
                    seen[t] = true;
                    haipai[13 * s + count++] = static_cast<std::int16_t>(t);
                });
            }
            if (count != (s < g_.players ? 13 : 0)) decline("bad deal size");
            for (int i = count; i < 13; ++i) haipai[13 * s + i] = -1;
        }
        const long long dora = seed[5];
        if (dora < 0 || dora > 135 || !valid_[dora] || seen[dora]) decline("bad seed dora");
        Span chips;
        if (const auto* chip = tag.get("chip"); chip != nullptr) chips = ints(*chip, "INIT chip", false);
        std::int32_t shuffle = -1;
        if (const auto* sh = tag.get("shuffle"); sh != nullptr) shuffle = g_.add_string(*sh);
        tag.all_read();

        hand_ = static_cast<std::int32_t>(h.size());
        h.seq.push_back(index);
        h.round_index.push_back(to_i32(seed[0], "round"));
        h.honba.push_back(to_i32(seed[1], "honba"));
        h.sticks.push_back(to_i32(seed[2], "sticks"));
        h.dealer.push_back(static_cast<std::int8_t>(dealer));
        h.dice.push_back(static_cast<std::int8_t>(seed[3] + 1));
        h.dice.push_back(static_cast<std::int8_t>(seed[4] + 1));
        h.dora_indicator.push_back(static_cast<std::int16_t>(dora));
        for (long long v : ten) h.scores.push_back(to_i32(100 * v, "INIT ten"));
        h.haipai.insert(h.haipai.end(), haipai, haipai + 52);
        h.chips.push_back(chips);
        h.shuffle.push_back(shuffle);
        result_seen_ = false;
        for (int s = 0; s < 4; ++s) last_draw_[s] = -1;
        flush_between();
    }

    std::int32_t meld(long long m, int who) {
        DecodedMeld dm;
        if (!decode_meld(m, who, g_.tile_set == kToutenkou, &dm)) decline("a meld code decode_meld refuses");
        Melds& ms = g_.melds;
        ms.code.push_back(static_cast<std::int32_t>(m));
        ms.who.push_back(static_cast<std::int8_t>(who));
        ms.kind.push_back(dm.kind);
        ms.tiles.insert(ms.tiles.end(), dm.tiles, dm.tiles + 4);
        ms.called.push_back(dm.called);
        ms.from_seat.push_back(dm.from_seat);
        ms.added.push_back(dm.added);
        return static_cast<std::int32_t>(ms.size() - 1);
    }

    void reach(Tag& tag, std::int32_t index) {
        const int who = seat(tag.need("who"), "who");
        const auto* step = tag.get("step");
        const auto* ten = tag.get("ten");
        tag.all_read();
        if (step == nullptr) decline("a REACH without step (2006)");
        if (*step == "1") {
            g_.events.push(hand_, index, kRiichiDeclare, static_cast<std::int8_t>(who), -1, 0, -1);
        } else if (*step == "2") {
            std::int32_t ref = -1;
            if (ten != nullptr && !ten->empty()) {
                const IntList v = int_list(*ten, "REACH ten");
                if (v.size() != 4) decline("REACH ten has not 4 values");
                ref = static_cast<std::int32_t>(g_.reach_scores.size() / 4);
                for (long long x : v) g_.reach_scores.push_back(to_i32(100 * x, "REACH ten"));
            }
            g_.events.push(hand_, index, kRiichiAccept, static_cast<std::int8_t>(who), -1, 0, ref);
        } else {
            decline("REACH step is neither 1 nor 2");
        }
    }

    void pair(std::string_view value, std::vector<std::int32_t>& a, std::vector<std::int32_t>& b) {
        const IntList v = int_list(value, "ba");
        if (v.size() != 2 || v[0] < 0 || v[1] < 0) decline("ba is not honba,sticks");
        a.push_back(to_i32(v[0], "ba"));
        b.push_back(to_i32(v[1], "ba"));
    }

    // sc: scores and deltas in points; chips (before, deltas) in the 16-value form.
    void sc(std::string_view value, std::vector<std::int32_t>& scores, std::vector<std::int32_t>& deltas,
            std::vector<std::int8_t>& has_chips, std::vector<std::int32_t>& chips,
            std::vector<std::int32_t>& chip_deltas) {
        const IntList v = int_list(value, "sc");
        if (v.size() != 8 && v.size() != 16) decline("sc has not 8 or 16 values");
        for (int i = 0; i < 4; ++i) {
            scores.push_back(to_i32(100 * v[2 * i], "sc"));
            deltas.push_back(to_i32(100 * v[2 * i + 1], "sc"));
        }
        has_chips.push_back(v.size() == 16 ? 1 : 0);
        for (int i = 0; i < 4; ++i) {
            chips.push_back(v.size() == 16 ? to_i32(v[8 + 2 * i], "sc") : 0);
            chip_deltas.push_back(v.size() == 16 ? to_i32(v[9 + 2 * i], "sc") : 0);
        }
    }

    // owari (row of owari, or -1) and ratio (index of strings, or -1); a result seen.
    void result_tail(Tag& tag, std::vector<std::int32_t>& owari, std::vector<std::int32_t>& ratio) {
        std::int32_t row = -1;
        if (const auto* o = tag.get("owari"); o != nullptr) {
            std::vector<std::string_view> parts;
            each_part(*o, [&](std::string_view part) { parts.push_back(part); });
            if (parts.size() != 8 && parts.size() != 16) decline("owari has not 8 or 16 values");
            row = static_cast<std::int32_t>(g_.owari.size());
            for (int i = 0; i < 4; ++i) {
                g_.owari.scores.push_back(to_i32(100 * to_int(parts[2 * i], "owari"), "owari"));
                g_.owari.points.push_back(to_float(parts[2 * i + 1], "owari"));
            }
            if (parts.size() == 16) {
                const std::size_t start = static_cast<std::size_t>(parts[8].data() - o->data());
                g_.meta_extra.emplace_back("owari.chips", std::string(o->substr(start)));
            }
        }
        owari.push_back(row);
        const auto* r = tag.get("ratio");
        ratio.push_back(r != nullptr ? g_.add_string(*r) : -1);
        tag.all_read();
        result_seen_ = true;
    }

    void agari(Tag& tag, std::int32_t index) {
        Agaris& a = g_.agari;
        const std::int32_t row = static_cast<std::int32_t>(a.size());
        const int who = seat(tag.need("who"), "who");
        const int from_who = seat(tag.need("fromWho"), "fromWho");
        a.hand.push_back(hand_);
        a.seq.push_back(index);
        a.who.push_back(static_cast<std::int8_t>(who));
        a.from_who.push_back(static_cast<std::int8_t>(from_who));
        pair(tag.need("ba"), a.honba, a.sticks);
        const Span hai = tiles(tag.need("hai"), "hai");
        a.hai.push_back(hai);
        // melds: the XML lists them last call first; stored in calling order
        Span melds{static_cast<std::int32_t>(g_.melds.size()), 0};
        int sets = 0;
        if (const auto* m = tag.get("m"); m != nullptr && !m->empty()) {
            const IntList codes = int_list(*m, "AGARI m");
            for (std::size_t i = codes.size(); i-- > 0;) {
                const std::int32_t r = meld(codes[i], who);
                sets += g_.melds.kind[r] != kKita;
            }
            melds.length = static_cast<std::int32_t>(codes.size());
        }
        a.melds.push_back(melds);
        if (hai.length + 3 * sets != 14) decline("AGARI hand size");
        const long long machi = to_int(tag.need("machi"), "machi");
        bool in_hand = false;
        for (int i = 0; i < hai.length; ++i) in_hand |= g_.pool[hai.offset + i] == machi;
        if (!in_hand) decline("AGARI machi not in the hand");
        a.machi.push_back(static_cast<std::int16_t>(machi));
        const IntList ten = int_list(tag.need("ten"), "AGARI ten");
        if (ten.size() != 3) decline("AGARI ten has not 3 values");
        a.fu.push_back(to_i32(ten[0], "ten"));
        a.points.push_back(to_i32(ten[1], "ten"));
        a.limit.push_back(to_i32(ten[2], "ten"));
        const auto* yaku = tag.get("yaku");
        const Span ys = ints(yaku != nullptr ? *yaku : std::string_view(), "yaku", true);
        if (ys.length % 2) decline("AGARI yaku odd");
        a.yaku.push_back(ys);
        const auto* yakuman = tag.get("yakuman");
        a.yakuman.push_back(ints(yakuman != nullptr ? *yakuman : std::string_view(), "yakuman", true));
        const auto* dora = tag.get("doraHai");
        a.dora.push_back(tiles(dora != nullptr ? *dora : std::string_view(), "doraHai"));
        const auto* ura = tag.get("doraHaiUra");
        a.ura.push_back(tiles(ura != nullptr ? *ura : std::string_view(), "doraHaiUra"));
        const auto* pao = tag.get("paoWho");
        a.pao.push_back(static_cast<std::int8_t>(pao != nullptr ? seat(*pao, "paoWho") : -1));
        sc(tag.need("sc"), a.scores, a.deltas, a.has_chips, a.chips, a.chip_deltas);
        Span chip;  // absent
        if (const auto* c = tag.get("chip"); c != nullptr) {
            chip = ints(*c, "chip", true);
            if (chip.length % 2) decline("AGARI chip odd");
        }
        a.chip.push_back(chip);
        result_tail(tag, a.owari, a.ratio);
        g_.events.push(hand_, index, kAgari, static_cast<std::int8_t>(who), static_cast<std::int16_t>(machi), 0, row);
    }

    void ryuukyoku(Tag& tag, std::int32_t index) {
        Ryuukyokus& r = g_.ryuukyoku;
        const std::int32_t row = static_cast<std::int32_t>(r.size());
        int kind = 0;
        if (const auto* type = tag.get("type"); type != nullptr) {
            kind = -1;
            for (int i = 0; i < kNumDrawKinds; ++i) {
                if (*type == kDrawKinds[i]) kind = i;
            }
            if (kind < 0) decline("unknown RYUUKYOKU type");
        }
        r.hand.push_back(hand_);
        r.seq.push_back(index);
        r.kind.push_back(static_cast<std::int8_t>(kind));
        pair(tag.need("ba"), r.honba, r.sticks);
        sc(tag.need("sc"), r.scores, r.deltas, r.has_chips, r.chips, r.chip_deltas);
        for (int s = 0; s < 4; ++s) {
            const auto* raw = tag.get(std::string_view("hai0hai1hai2hai3").substr(4 * s, 4));
            Span shown;
            if (raw != nullptr) {
                if (s >= g_.players) decline("RYUUKYOKU shows a hand in a 3-player game's empty seat");
                shown = tiles(*raw, "RYUUKYOKU hai");
                if (shown.length % 3 == 0 || shown.length > 14) decline("RYUUKYOKU hand size");
            }
            r.shown.push_back(shown);
        }
        result_tail(tag, r.owari, r.ratio);
        g_.events.push(hand_, index, kRyuukyoku, -1, -1, 0, row);
    }

    void finish() {
        if (!in_hands_) decline("no hand");
        for (const Pending& e : between_) push_pending(e);  // trailing BYE/UN: the last hand's
        between_.clear();
        close_hand();
        if (!g_.player_list.present) decline("no player list");
    }
};

void kan(int m, int who, int offset, DecodedMeld* out) {
    const int tile = m >> 8;
    const int k = tile >> 2;
    out->count = 4;
    for (int c = 0; c < 4; ++c) out->tiles[c] = static_cast<std::int16_t>(4 * k + c);
    if (offset == 0) {
        out->kind = kAnkan;
    } else {
        out->kind = kDaiminkan;
        out->called = static_cast<std::int16_t>(tile);
        out->from_seat = static_cast<std::int8_t>((who + offset) % 4);
    }
}

}  // namespace

bool decode_meld(long long code, int who, bool gari, DecodedMeld* out) {
    *out = DecodedMeld{};
    if (who < 0 || who > 3 || code < 0 || code > 0xFFFF) return false;
    const int m = static_cast<int>(code);
    if (!gari && (m & 0x1F) == 0 && (m & 0xE0) == ((m >> 8) & 0xE0)) {  // the 2006 ankan form
        if ((m >> 8) >> 2 > 33) return false;
        kan(m, who, 0, out);
        return true;
    }
    const int offset = m & 3;
    if (m & 0x04) {  // chi
        const int t = m >> 10;
        const int called_index = t % 3;
        const int suit = t / 3 / 7;
        const int start = t / 3 % 7;
        if (suit > 2 || offset != 3) return false;
        const int base = 9 * suit + start;
        out->kind = kChi;
        out->count = 3;
        out->tiles[0] = static_cast<std::int16_t>(4 * base + ((m >> 3) & 3));
        out->tiles[1] = static_cast<std::int16_t>(4 * (base + 1) + ((m >> 5) & 3));
        out->tiles[2] = static_cast<std::int16_t>(4 * (base + 2) + ((m >> 7) & 3));
        out->called = out->tiles[called_index];
        out->from_seat = static_cast<std::int8_t>((who + 3) % 4);
        return true;
    }
    if (m & (0x08 | 0x10)) {  // pon or kakan
        const int t = m >> 9;
        const int called_index = t % 3;
        const int k = t / 3;
        if (k > 33 || offset == 0) return false;
        const int unused = (m >> 5) & 3;
        std::int16_t pon[3];
        int n = 0;
        for (int c = 0; c < 4; ++c) {
            if (c != unused) pon[n++] = static_cast<std::int16_t>(4 * k + c);
        }
        out->called = pon[called_index];
        out->from_seat = static_cast<std::int8_t>((who + offset) % 4);
        if (m & 0x08) {
            out->kind = kPon;
            out->count = 3;
            for (int i = 0; i < 3; ++i) out->tiles[i] = pon[i];
        } else {
            out->kind = kKakan;
            out->count = 4;
            for (int c = 0; c < 4; ++c) out->tiles[c] = static_cast<std::int16_t>(4 * k + c);
            out->added = static_cast<std::int16_t>(4 * k + unused);
        }
        return true;
    }
    if (m & 0x20) {  // kita (Toutenkou: 1m, 5m, 9m too)
        const int tile = m >> 8;
        const int k = tile >> 2;
        const bool ok = gari ? (k == 0 || k == 4 || k == 8 || k == 30) : k == 30;
        if (!ok || offset) return false;
        out->kind = kKita;
        out->count = 1;
        out->tiles[0] = static_cast<std::int16_t>(tile);
        return true;
    }
    if ((m >> 8) >> 2 > 33) return false;
    kan(m, who, offset, out);
    return true;
}

bool read_mjlog(std::string_view data, GameTables* out, std::string* reason,
                const Limits& limits) {
    out->clear();
    try {
        Reader reader(data, *out, limits);
        reader.read();
    } catch (const Decline& d) {
        if (reason != nullptr) *reason = d.why;
        return false;
    }
    return true;
}

}  // namespace replay_audit::core::mjlog
