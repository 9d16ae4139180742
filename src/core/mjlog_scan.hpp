// The mjlog reader's lexical layer (internal to mjlog.cpp and mjlog_tags.cpp): the
// character classes of the scanner's inner loops, the number readers that accept what
// Python's int() and float() accept, the comma-split lists, and a tag's attributes as
// read (Tag: each value marked when read, so an attribute nobody read declines the
// document).  Shared by the scan loop and the tag handlers, so it lives in one header;
// its decline() is how both say "leave this document to the Python reader".
#pragma once

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "mjlog.hpp"

namespace replay_audit::core::mjlog::detail {

// Thrown inside the reader only; read_mjlog turns it into ``false``.
struct Decline {
    std::string why;
};

[[noreturn]] inline void decline(std::string why) { throw Decline{std::move(why)}; }

inline constexpr int kMaxAttrs = 24;

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
inline constexpr CharClasses kClasses;

inline bool in_class(char c, unsigned char cls) {
    return (kClasses.of[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool is_space(char c) { return in_class(c, kSpace); }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return in_class(c, kAlpha); }
inline bool is_name(char c) { return in_class(c, kName); }

// -?[0-9]{1,18}: what Python's int() reads the same way (no sign '+', no spaces,
// no underscores, which int() would also accept: those are declined).
inline bool parse_int(std::string_view s, long long* out) {
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

inline long long to_int(std::string_view s, const char* what) {
    long long v;
    if (!parse_int(s, &v)) decline(std::string("not an integer: ") + what);
    return v;
}

inline std::int32_t to_i32(long long v, const char* what) {
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
        decline(std::string("out of range: ") + what);
    return static_cast<std::int32_t>(v);
}

// -?[0-9]+(\.[0-9]+)? with at most 15 digits in all: the value is then the mantissa
// (an integer below 2^53, exact as a double) divided by a power of ten up to 10^15
// (exact too), and IEEE division rounds that quotient correctly: the double Python's
// float() gives for the same text.  No strtod, whose decimal point follows the C
// locale.  Longer or other forms (exponents, "inf", "1.") are declined.
inline double to_float(std::string_view s, const char* what) {
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

inline IntList int_list(std::string_view s, const char* what) {
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

}  // namespace replay_audit::core::mjlog::detail
