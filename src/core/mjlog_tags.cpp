// The mjlog reader's tag handlers (mjlog_reader.hpp): the header tags (SHUFFLE, GO,
// TAIKYOKU, UN's player list), a hand's INIT, N (the meld decoded by decode_meld,
// mjlog_meld.cpp), REACH, the results AGARI and RYUUKYOKU with their sc/owari values,
// and the BYE/UN reconnections kept in their place after a result.  Each does
// what replay_audit/parsers/tenhou_xml.py does for the tag and declines what it warns on.
#include <string>
#include <string_view>
#include <vector>

#include "mjlog_reader.hpp"

namespace replay_audit::core::mjlog::detail {

namespace {

constexpr const char* kDrawKinds[] = {"exhaustive", "nm", "yao9", "reach4", "ron3", "kan4", "kaze4"};
constexpr int kNumDrawKinds = 7;

}  // namespace

void Reader::header(Tag& tag, std::int32_t index) {
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
bool Reader::un(Tag& tag, std::int32_t index, Pending* event) {
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

void Reader::push_pending(const Pending& e) { g_.events.push(hand_, e.seq, e.kind, e.seat, -1, 0, e.ref); }

void Reader::connection(const Pending& e) {
    if (result_seen_) {
        between_.push_back(e);
    } else {
        push_pending(e);
    }
}

void Reader::flush_between() {
    for (const Pending& e : between_) push_pending(e);
    between_.clear();
}

void Reader::close_hand() {
    if (hand_ >= 0 && !result_seen_) decline("a hand without AGARI or RYUUKYOKU");
}

void Reader::init(Tag& tag, std::int32_t index) {
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

std::int32_t Reader::meld(long long m, int who) {
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

void Reader::reach(Tag& tag, std::int32_t index) {
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

void Reader::pair(std::string_view value, std::vector<std::int32_t>& a, std::vector<std::int32_t>& b) {
    const IntList v = int_list(value, "ba");
    if (v.size() != 2 || v[0] < 0 || v[1] < 0) decline("ba is not honba,sticks");
    a.push_back(to_i32(v[0], "ba"));
    b.push_back(to_i32(v[1], "ba"));
}

// sc: scores and deltas in points; chips (before, deltas) in the 16-value form.
void Reader::sc(std::string_view value, std::vector<std::int32_t>& scores, std::vector<std::int32_t>& deltas,
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
void Reader::result_tail(Tag& tag, std::vector<std::int32_t>& owari, std::vector<std::int32_t>& ratio) {
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

void Reader::agari(Tag& tag, std::int32_t index) {
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

void Reader::ryuukyoku(Tag& tag, std::int32_t index) {
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

}  // namespace replay_audit::core::mjlog::detail
