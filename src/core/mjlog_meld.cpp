// A meld code of an mjlog N tag decoded (mjlog.hpp's decode_meld): chi, pon, kakan,
// kan and kita from Tenhou's bit layout, as replay_audit/parsers/meld_code.py decodes
// them.  Its own file: pure arithmetic on one int, used by the reader and by module.cpp.
#include "mjlog.hpp"

namespace replay_audit::core::mjlog {

namespace {

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

}  // namespace replay_audit::core::mjlog
