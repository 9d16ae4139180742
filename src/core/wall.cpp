// The wall from the seed; see wall.hpp and replay_audit/wall.py.
#include "wall.hpp"

#include <cstring>
#include <utility>
#include <vector>

#include "sha512.hpp"

namespace replay_audit::core {
namespace {

constexpr std::string_view kFormBase64 = "mt19937ar-sha512-n288-base64";
constexpr std::string_view kFormHex = "mt19937ar-sha512-n288";
constexpr std::string_view kFormInit = "mt19937ar";

constexpr int kKeyWords = 624;     // words of a base64 key (2496 bytes)
constexpr int kBase64Chars = 3328;  // 2496 bytes, no padding
constexpr int kHexWords = 32;       // words of a late-2009 hex key, 8 digits each
constexpr int kHandWords = 288;     // MT outputs per hand in the SHA-512 forms
constexpr int kChunkBytes = 128;    // hashed per SHA-512 digest
constexpr int kRndWords = 144;      // 9 digests of 16 words
constexpr int kSha512DiceAt = 135;  // the dice words of the SHA-512 forms (3p too)

bool is_ascii_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view strip(std::string_view s) {
    while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
    return s;
}

// The form before the first comma and the text after it (``has_key`` false: no comma).
std::string_view split_form(std::string_view seed, std::string_view* rest, bool* has_key) {
    const std::size_t comma = seed.find(',');
    *has_key = comma != std::string_view::npos;
    *rest = *has_key ? seed.substr(comma + 1) : std::string_view{};
    return strip(*has_key ? seed.substr(0, comma) : seed);
}

// Each byte's base64 value, -1 for a byte outside the alphabet: one load per character
// (a key is 3328 of them, once per game; the chain of range tests cost more).
struct Base64Values {
    signed char of[256] = {};
    constexpr Base64Values() {
        for (int c = 0; c < 256; ++c) of[c] = -1;
        for (int v = 0; v < 26; ++v) {
            of['A' + v] = static_cast<signed char>(v);
            of['a' + v] = static_cast<signed char>(v + 26);
        }
        for (int v = 0; v < 10; ++v) of['0' + v] = static_cast<signed char>(v + 52);
        of[static_cast<unsigned char>('+')] = 62;
        of[static_cast<unsigned char>('/')] = 63;
    }
};
constexpr Base64Values kBase64{};

int base64_value(char c) { return kBase64.of[static_cast<unsigned char>(c)]; }

// 3328 base64 characters, no padding, into 624 little-endian words.
bool base64_key(std::string_view text, std::vector<std::uint32_t>& key) {
    if (text.size() != static_cast<std::size_t>(kBase64Chars)) return false;
    std::uint8_t raw[4 * kKeyWords];
    std::size_t n = 0;
    for (std::size_t i = 0; i < text.size(); i += 4) {
        std::uint32_t quad = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int v = base64_value(text[i + k]);
            if (v < 0) return false;
            quad = (quad << 6) | static_cast<std::uint32_t>(v);
        }
        raw[n++] = static_cast<std::uint8_t>(quad >> 16);
        raw[n++] = static_cast<std::uint8_t>(quad >> 8);
        raw[n++] = static_cast<std::uint8_t>(quad);
    }
    key.resize(kKeyWords);
    for (int w = 0; w < kKeyWords; ++w) {
        const std::uint8_t* p = raw + 4 * w;
        key[w] = static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                 static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
    }
    return true;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Comma-separated hex words (ASCII spaces around each allowed); ``digits`` > 0
// asks for exactly that many digits per word, 0 for any number with a 32-bit value.
bool hex_key(std::string_view text, int digits, std::vector<std::uint32_t>& key) {
    key.clear();
    for (;;) {
        const std::size_t comma = text.find(',');
        const std::string_view word = strip(text.substr(0, comma));
        if (word.empty() || (digits > 0 && word.size() != static_cast<std::size_t>(digits))) {
            return false;
        }
        std::uint64_t value = 0;
        for (const char c : word) {
            const int v = hex_value(c);
            if (v < 0) return false;
            value = (value << 4) | static_cast<std::uint64_t>(v);
            if (value > 0xffffffffULL) return false;
        }
        key.push_back(static_cast<std::uint32_t>(value));
        if (comma == std::string_view::npos) return true;
        text.remove_prefix(comma + 1);
    }
}

// ``v`` with its bytes in little-endian order in memory (a no-op on such hosts).
inline std::uint32_t host_to_le32(std::uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap32(v);
#else
    return v;
#endif
}

std::uint32_t load_le32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// x % d for a 32-bit x and a divisor 1..kMaxWallTiles, by a multiplication with the
// divisor's precomputed 64-bit reciprocal (Lemire, Kaser and Kurz, "Faster remainder
// by direct computation", 2019): exact for every 32-bit x and d, and a hand's 136
// divisions were a fifth of its shuffle.
#if defined(__SIZEOF_INT128__)
struct Reciprocals {
    std::uint64_t of[kMaxWallTiles + 1] = {};
    constexpr Reciprocals() {
        for (int d = 1; d <= kMaxWallTiles; ++d)
            of[d] = ~std::uint64_t{0} / static_cast<std::uint64_t>(d) + 1;
    }
};
constexpr Reciprocals kReciprocal{};

inline std::uint32_t mod_small(std::uint32_t x, int d) {
    const std::uint64_t low = kReciprocal.of[d] * x;
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(low) * d) >> 64);
}
#else
inline std::uint32_t mod_small(std::uint32_t x, int d) {
    return x % static_cast<std::uint32_t>(d);
}
#endif

// The tile ids a shuffle starts from, last first: the wall is read backwards, so the
// shuffle works in the record itself, deck position i at record[n - 1 - i].
struct Decks {
    std::uint8_t four[136] = {};
    std::uint8_t three[108] = {};
    constexpr Decks() {
        for (int t = 0; t < 136; ++t) four[135 - t] = static_cast<std::uint8_t>(t);
        int k = 0;
        for (int t = 0; t < 136; ++t) {
            if (t >= 4 && t < 32) continue;  // sanma drops 2m-8m
            three[107 - k++] = static_cast<std::uint8_t>(t);
        }
    }
};
constexpr Decks kDecks{};

// Tenhou's Fisher-Yates pass (swap i with i + rnd[i] % (n - i)), read backwards,
// then the dice from rnd[dice_at] and rnd[dice_at + 1].
void shuffle_into(const std::uint32_t* rnd, int players, int dice_at, std::uint8_t* out) {
    const int n = wall_tiles(players);
    std::memcpy(out, players == 3 ? kDecks.three : kDecks.four, static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int j = i + static_cast<int>(mod_small(rnd[i], n - i));
        std::swap(out[n - 1 - i], out[n - 1 - j]);  // the deck's tiles i and j
    }
    out[n] = static_cast<std::uint8_t>(rnd[dice_at] % 6 + 1);
    out[n + 1] = static_cast<std::uint8_t>(rnd[dice_at + 1] % 6 + 1);
}

// One hand of the SHA-512 forms: 288 outputs, hashed 128 bytes at a time.
void hashed_hand(Mt19937& mt, int players, std::uint8_t* out) {
    std::uint32_t words[kHandWords];
    mt.fill(words, kHandWords);
    std::uint8_t src[4 * kHandWords];  // the words' bytes, little-endian
    for (int i = 0; i < kHandWords; ++i) {
        const std::uint32_t le = host_to_le32(words[i]);
        std::memcpy(src + 4 * i, &le, 4);  // on a little-endian host: one copy of them all
    }
    std::uint8_t digest[4 * kRndWords];
    static_assert(kChunkBytes == 128, "sha512_128 hashes 128-byte chunks");
    sha512_128(src, 4 * kHandWords / kChunkBytes, digest);
    std::uint32_t rnd[kRndWords];
    for (int i = 0; i < kRndWords; ++i) rnd[i] = load_le32(digest + 4 * i);
    shuffle_into(rnd, players, kSha512DiceAt, out);
}

}  // namespace

const char* declined_reason(int code) {
    switch (code) {
        case kOk:
            return "ok";
        case kBadPlayers:
            return "players must be 3 or 4";
        case kBadHands:
            return "hands must be >= 0";
        case kUnknownForm:
            return "not a wall seed form the compiled core reproduces";
        case kBadKey:
            return "the seed's key is not in its canonical text";
        default:
            return "declined";
    }
}

int SeedWalls::start(std::string_view seed, int players) {
    if (wall_tiles(players) == 0) return kBadPlayers;
    std::string_view rest;
    bool has_key = false;
    const std::string_view form = split_form(seed, &rest, &has_key);
    std::vector<std::uint32_t> key;
    if (form == kFormBase64) {
        if (!has_key || !base64_key(rest, key)) return kBadKey;
        flipped_ = false;
    } else if (form == kFormHex) {
        if (!has_key || !hex_key(rest, 8, key) || key.size() != kHexWords) return kBadKey;
        flipped_ = true;
    } else {
        return kUnknownForm;
    }
    mt_.init_by_array(key.data(), key.size());
    players_ = players;
    return kOk;
}

void SeedWalls::next(std::uint8_t* out) { hashed_hand(mt_, players_, out); }

int seed_walls(std::string_view seed, int players, long hands, std::uint8_t* out, bool* flipped) {
    if (wall_tiles(players) == 0) return kBadPlayers;
    if (hands < 0) return kBadHands;
    SeedWalls walls;
    const int code = walls.start(seed, players);
    if (code != kOk) return code;
    *flipped = walls.flipped();
    const int size = wall_record_bytes(players);
    for (long h = 0; h < hands; ++h) walls.next(out + size * h);
    return kOk;
}

int init_shuffle_wall(std::string_view shuffle, int players, std::uint8_t* out) {
    const int n = wall_tiles(players);
    if (n == 0) return kBadPlayers;
    std::string_view rest;
    bool has_key = false;
    if (split_form(shuffle, &rest, &has_key) != kFormInit) return kUnknownForm;
    std::vector<std::uint32_t> key;
    if (!has_key || !hex_key(rest, 0, key)) return kBadKey;
    Mt19937 mt;
    mt.init_by_array(key.data(), key.size());
    std::uint32_t rnd[kMaxWallTiles + 1];
    for (int i = 0; i <= n; ++i) rnd[i] = mt.next();
    shuffle_into(rnd, players, n - 1, out);
    return kOk;
}

void mt19937_outputs(const std::uint32_t* key, std::size_t key_len, std::size_t count,
                     std::uint32_t* out) {
    Mt19937 mt;
    mt.init_by_array(key, key_len);
    // In runs of 1, 2, 3, ... words, the odd runs by ``next`` and the even ones by
    // ``fill``, so the tests hold both ways, and their turns, to the reference.
    std::size_t i = 0;
    for (std::size_t run = 1; i < count; ++run) {
        const std::size_t n = run < count - i ? run : count - i;
        if (run % 2 == 0) {
            mt.fill(out + i, n);
        } else {
            for (std::size_t k = 0; k < n; ++k) out[i + k] = mt.next();
        }
        i += n;
    }
}

}  // namespace replay_audit::core
