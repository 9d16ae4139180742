// The rooms the hand loop (replay_hand.cpp) makes in C where the Python room, their
// reference, would find nothing (replay_hand_table.hpp): an exhaustive or abortive
// draw, a kan dora indicator, an ankan or kakan, a chi, pon or daiminkan with its pao.
#include "hand_events.hpp"
#include "replay_hand_table.hpp"
#include "replay_plumbing.hpp"
#include "waits.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace replay_audit::core::hand {

// ---------------------------------------------------------------- the rooms in C
//
// The three rooms below are made here in their plain case, the one where the Python
// room (its reference) finds nothing: each reads all it needs first and answers
// "not mine" (an empty object or false, nothing changed) at the first thing that
// could make a finding or that is not as the Python keeps it; only then does it write
// the table.  Every exhaustive draw, kan and kan dora indicator was a Python call (about
// 9,000 a pass over the Phoenix corpus, a tenth of run_game's time when measured);
// tests/test_core_replay_rooms.py holds them equal to the rooms on the corpus and on
// damaged games.

// A slot of the table written with an int (steals nothing: the value is made here).
void put_long(PyObject* table, TableSlot which, long v) {
    put(table, table_slots.at[which], PyLong_FromLong(v));
}

// The exact ints of ``table``'s slots ``which`` into ``out``; false when one is not.
template <std::size_t N>
bool longs_of(PyObject* table, const TableSlot (&which)[N], long (&out)[N]) {
    for (std::size_t j = 0; j < N; ++j)
        if (!as_long(get(table, which[j]), out[j])) return false;
    return true;
}

constexpr Py_ssize_t kMaxHand = 4 * kNumKinds;  // no hand holds more tiles than there are

// The fields of a RecordedDraw read here.
constexpr const char* kDrawNames[2] = {"kind", "shown"};
NamedSlots<2> draw_slots;

// Whether each (seat, tiles) pair of a draw's ``shown`` has its seat's concealed hand,
// tile for tile in any order (results.py ``_check_shown``, the reference, finds the
// difference); false too for anything not as the Python keeps it.
bool shown_as_held(PyObject* shown, PyObject* concealed, long n) {
    if (!PyTuple_CheckExact(shown) || !PyList_CheckExact(concealed)) return false;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(shown); ++j) {
        PyObject* pair = PyTuple_GET_ITEM(shown, j);
        long seat = 0;
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
            !as_long(PyTuple_GET_ITEM(pair, 0), seat))
            return false;
        if (seat < 0 || seat >= n) continue;  // (as the reference: no seat, nothing to hold)
        PyObject* hand = list_at(concealed, seat);
        long held[kMaxHand], told[kMaxHand];
        const Py_ssize_t k = hand == nullptr ? -1 : tile_ids(hand, held, kMaxHand);
        const Py_ssize_t m = tile_ids(PyTuple_GET_ITEM(pair, 1), told, kMaxHand);
        if (k < 0 || m != k) return false;
        std::sort(held, held + k);
        std::sort(told, told + m);
        if (!std::equal(held, held + k, told)) return false;
    }
    return true;
}

// _Results._draw_result for an exhaustive draw (or nagashi mangan) that finds nothing:
// the live wall empty, every playing seat's tenpai from its concealed tiles (the core's
// wait_mask, as replay.waits.hands_tenpai asks it), the shown hands those of the tenpai
// seats in seat order.  The ResultReplay with its DrawContext, or an empty object (an
// abortive draw, or anything the Python room decides: then it runs, nothing changed).
py::object plain_draw(PyObject* table, PyObject* r, PyObject* make, PyObject* const* consts) {
    if (!draw_slots.of(Py_TYPE(r), kDrawNames)) return {};
    PyObject* kind = slot_value(r, draw_slots.at[0]);
    PyObject* shown = slot_value(r, draw_slots.at[1]);
    if (kind == nullptr || shown == nullptr || !PyUnicode_CheckExact(kind)) return {};
    if (PyUnicode_CompareWithASCIIString(kind, "exhaustive") != 0 &&
        PyUnicode_CompareWithASCIIString(kind, "nm") != 0)
        return {};
    long live = 0, n = 0, to_act = 0;
    PyObject* n_obj = get(table, T_N);
    if (!as_long(get(table, T_LIVE), live) || live != 0 || !as_long(n_obj, n)) return {};
    if (!as_long(get(table, T_TO_ACT), to_act) || to_act >= 0) return {};  // draw_mid_turn
    PyObject* concealed = get(table, T_CONCEALED);
    PyObject* nagashi = get(table, T_NAGASHI);
    if (!PyList_CheckExact(concealed) || !PyList_CheckExact(nagashi)) return {};
    const Py_ssize_t seats = PyList_GET_SIZE(concealed);
    constexpr Py_ssize_t kSeats = 8;
    if (n < 0 || n > seats || n > PyList_GET_SIZE(nagashi) || seats > kSeats) return {};
    bool tenpai[kSeats] = {};
    long waiting[kSeats];  // the tenpai seats, in seat order
    Py_ssize_t m = 0;
    for (Py_ssize_t s = 0; s < n; ++s) {
        long ids[kMaxHand];
        const Py_ssize_t k = tile_ids(PyList_GET_ITEM(concealed, s), ids, kMaxHand);
        std::uint8_t counts[kNumKinds];
        if (k < 0 || !PyList_CheckExact(PyList_GET_ITEM(concealed, s)) ||
            !count_tiles(ids, static_cast<long>(k), counts))
            return {};
        tenpai[s] = wait_mask(counts) != 0;
        if (tenpai[s]) waiting[m++] = static_cast<long>(s);
    }
    if (shown != Py_None) {  // the shown hands: (seat, tiles) pairs, the tenpai seats'
        if (!PyTuple_CheckExact(shown) || PyTuple_GET_SIZE(shown) != m) return {};
        for (Py_ssize_t j = 0; j < m; ++j) {
            PyObject* pair = PyTuple_GET_ITEM(shown, j);
            long seat = 0;
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !as_long(PyTuple_GET_ITEM(pair, 0), seat) || seat != waiting[j])
                return {};
        }
        if (!shown_as_held(shown, concealed, n)) return {};
    }
    py::object tenpai_t = own(PyTuple_New(seats));
    py::object nagashi_t = own(PyTuple_New(seats));
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyTuple_SET_ITEM(tenpai_t.ptr(), s, new_bool(tenpai[s]));
        PyTuple_SET_ITEM(nagashi_t.ptr(), s, Py_NewRef(s < n ? PyList_GET_ITEM(nagashi, s) : Py_False));
    }
    py::object dealer = own(PyObject_GetAttr(get(table, T_HAND), names().dealer));
    PyObject* ctx_argv[5] = {consts[C_DRAW_CONTEXT], tenpai_t.ptr(), nagashi_t.ptr(), dealer.ptr(), n_obj};
    py::object ctx = own(PyObject_Vectorcall(make, ctx_argv, 5, nullptr));
    py::object none_paid = own(PyTuple_New(0));
    PyObject* res_argv[6] = {consts[C_RESULT_REPLAY], r, Py_None, ctx.ptr(), Py_None, none_paid.ptr()};
    return own(PyObject_Vectorcall(make, res_argv, 6, nullptr));
}

constexpr const char* kNewDoraNames[1] = {"indicator"};
NamedSlots<1> new_dora_slots;

// The table's ``seen`` (core_lists[0], a bytearray of 136), or nullptr when it is not so.
char* seen_bytes(PyObject* table) {
    PyObject* lists = get(table, T_CORE_LISTS);
    if (!PyTuple_CheckExact(lists) || PyTuple_GET_SIZE(lists) != kCoreListCount) return nullptr;
    PyObject* seen = PyTuple_GET_ITEM(lists, 0);
    if (!PyByteArray_CheckExact(seen) || PyByteArray_GET_SIZE(seen) != 136) return nullptr;
    return PyByteArray_AS_STRING(seen);
}

// moves._new_dora that finds nothing: the indicator a tile id not met before, shown
// where it is due or where a daiminkan's or kakan's pending dora comes after the
// replacement draw.  False (nothing changed) for anything else.
bool plain_new_dora(PyObject* table, PyObject* ev) {
    if (!new_dora_slots.of(Py_TYPE(ev), kNewDoraNames)) return false;
    PyObject* indicator = slot_value(ev, new_dora_slots.at[0]);
    long t = 0;
    if (indicator == nullptr || !as_long(indicator, t) || t < 0 || t >= 136) return false;
    char* seen = seen_bytes(table);
    PyObject* indicators = get(table, T_INDICATORS);
    if (get(table, T_JSON) != Py_False || seen == nullptr || seen[t] != 0 ||
        !PyList_CheckExact(indicators))
        return false;
    long v[4];  // dora_due, dora_pending, rinshan_due, to_act
    if (!longs_of(table, {T_DORA_DUE, T_DORA_PENDING, T_RINSHAN_DUE, T_TO_ACT}, v)) return false;
    const bool beyond = PyList_GET_SIZE(indicators) + 1 > v[0];
    if (beyond && !(v[1] != 0 && v[2] < 0 && v[3] >= 0)) return false;  // dora_timing
    seen[t] = 1;
    append(indicators, indicator);
    if (beyond) {
        put_long(table, T_DORA_PENDING, v[1] - 1);
        put_long(table, T_DORA_DUE, v[0] + 1);
    }
    return true;
}

constexpr const char* kCallNames[2] = {"seat", "meld"};
NamedSlots<2> call_slots;
constexpr const char* kMeldNames[2] = {"kind", "tiles"};
NamedSlots<2> meld_slots;
constexpr const char* kAddedNames[1] = {"added"};
NamedSlots<1> added_slots;
constexpr const char* kSourceNames[2] = {"called", "from_seat"};
NamedSlots<2> source_slots;  // (a meld's: the kakan's and its pon's)

// The index of the item ``tile`` in ``ids`` (``k`` of them), skipping those in ``taken``;
// -1 if none.
Py_ssize_t index_of(const long* ids, Py_ssize_t k, long tile, const bool* taken) {
    for (Py_ssize_t j = 0; j < k; ++j)
        if (ids[j] == tile && !taken[j]) return j;
    return -1;
}

// calls._check_riichi_ankan finding nothing: an ankan in riichi of the drawn tile's kind
// ``k`` that leaves the waits as they were (and some).  ``counts``: the hand with the four.
bool riichi_ankan_ok(PyObject* table, long s, long k, const std::uint8_t* counts) {
    long drawn = 0;
    PyObject* last = list_at(get(table, T_LAST_DRAW), s);
    if (last == nullptr || !as_long(last, drawn) || drawn < 0 || drawn >= 136 || drawn >> 2 != k)
        return false;
    std::uint8_t before[kNumKinds], after[kNumKinds];
    std::memcpy(before, counts, sizeof before);
    std::memcpy(after, counts, sizeof after);
    if (before[drawn >> 2] == 0) return false;
    --before[drawn >> 2];
    after[k] = after[k] >= 4 ? after[k] - 4 : 0;
    const std::uint64_t waits = wait_mask(before);
    return waits != 0 && waits == wait_mask(after);
}

// calls._ankan and calls._kakan when they find nothing: in the caller's own turn, no
// riichi being declared, a live tile left, at most the fourth kan; an ankan of four
// tiles of a kind held (in riichi: as _check_riichi_ankan allows it), a kakan of a
// tile held onto the seat's pon of its kind, with that pon's discarder and called
// tile, outside riichi.  False (nothing changed)
// for anything else, and for every other call (the Python's _call plays it).
bool plain_kan(PyObject* table, PyObject* ev, PyObject* const* consts) {
    if (!call_slots.of(Py_TYPE(ev), kCallNames)) return false;
    PyObject* seat_o = slot_value(ev, call_slots.at[0]);
    PyObject* meld = slot_value(ev, call_slots.at[1]);
    if (seat_o == nullptr || meld == nullptr || !meld_slots.of(Py_TYPE(meld), kMeldNames) ||
        !added_slots.of(Py_TYPE(meld), kAddedNames))
        return false;
    PyObject* kind = slot_value(meld, meld_slots.at[0]);
    PyObject* tiles_o = slot_value(meld, meld_slots.at[1]);
    const bool ankan = kind == consts[C_ANKAN];
    if ((!ankan && kind != consts[C_KAKAN]) || tiles_o == nullptr || !PyTuple_CheckExact(tiles_o))
        return false;
    long s = 0;
    long v[7];  // to_act, riichi_declared, live, kans, kan_seats, dora_due, dora_pending
    if (!as_long(seat_o, s) || s < 0 ||
        !longs_of(table, {T_TO_ACT, T_RIICHI_DECLARED, T_LIVE, T_KANS, T_KAN_SEATS, T_DORA_DUE, T_DORA_PENDING}, v))
        return false;
    // _own_turn, call_after_riichi (declaring), kan_empty_wall, fifth_kan
    if (s != v[0] || truthy(get(table, T_AFTER_CALL)) || v[1] == s || v[2] <= 0 || v[3] >= 4 || s >= 62)
        return false;
    PyObject* hand = list_at(get(table, T_CONCEALED), s);
    PyObject* riichi = list_at(get(table, T_RIICHI), s);
    PyObject* melds = list_at(get(table, T_MELDS), s);
    PyObject* ippatsu = get(table, T_IPPATSU);
    if (hand == nullptr || !PyList_CheckExact(hand) || melds == nullptr || !PyList_CheckExact(melds) ||
        (riichi != Py_True && riichi != Py_False) || !PyList_CheckExact(ippatsu))
        return false;
    bool ippatsu_on = false;  // _break_ippatsu: flags that are bools, any set
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(ippatsu); ++j) {
        PyObject* f = PyList_GET_ITEM(ippatsu, j);
        if (f != Py_True && f != Py_False) return false;
        ippatsu_on = ippatsu_on || f == Py_True;
    }
    long ids[kMaxHand];
    const Py_ssize_t k = tile_ids(hand, ids, kMaxHand);
    if (k < 0) return false;
    bool taken[kMaxHand] = {};
    Py_ssize_t at[4];  // the hand's items taken (list.remove's first equal, in turn)
    long tiles[4];
    const Py_ssize_t nt = tile_ids(tiles_o, tiles, 4);
    Py_ssize_t pon_at = -1;  // a kakan's pon in the seat's melds
    long added = -1;
    if (ankan) {
        if (nt != 4) return false;
        const long kk = tiles[0] >> 2;
        for (long t : tiles)
            if (t >> 2 != kk) return false;  // call_not_held: not four of a kind
        for (int j = 0; j < 4; ++j) {
            at[j] = index_of(ids, k, tiles[j], taken);
            if (at[j] < 0) return false;
            taken[at[j]] = true;
        }
        if (riichi == Py_True) {
            std::uint8_t counts[kNumKinds];
            if (!count_tiles(ids, static_cast<long>(k), counts) || !riichi_ankan_ok(table, s, kk, counts))
                return false;
        }
    } else {
        PyObject* added_o = slot_value(meld, added_slots.at[0]);
        if (riichi != Py_False || nt < 1 || added_o == nullptr || !as_long(added_o, added)) return false;
        const long kk = tiles[0] >> 2;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(melds) && pon_at < 0; ++j) {
            PyObject* old = PyList_GET_ITEM(melds, j);
            if (!meld_slots.of(Py_TYPE(old), kMeldNames)) return false;
            PyObject* old_kind = slot_value(old, meld_slots.at[0]);
            PyObject* old_tiles = slot_value(old, meld_slots.at[1]);
            if (old_kind != consts[C_PON]) continue;
            if (old_tiles == nullptr || !PyTuple_CheckExact(old_tiles)) return false;
            if (PyTuple_GET_SIZE(old_tiles) == 0) continue;
            bool ok = true;
            const long first = item_long(PyTuple_GET_ITEM(old_tiles, 0), ok);
            if (!ok) return false;
            if (first >> 2 == kk) pon_at = j;
        }
        at[0] = index_of(ids, k, added, taken);
        if (pon_at < 0 || at[0] < 0) return false;
        // kakan_not_its_pon: the kakan's discarder and called tile are its pon's
        PyObject* pon = PyList_GET_ITEM(melds, pon_at);
        if (!source_slots.of(Py_TYPE(meld), kSourceNames) || !source_slots.of(Py_TYPE(pon), kSourceNames))
            return false;
        for (int j = 0; j < 2; ++j) {
            PyObject* mine = slot_value(meld, source_slots.at[j]);
            PyObject* its = slot_value(pon, source_slots.at[j]);
            if (mine == nullptr || its == nullptr) return false;
            const int same = PyObject_RichCompareBool(mine, its, Py_EQ);
            if (same < 0) throw py::error_already_set();
            if (!same) return false;
        }
        taken[at[0]] = true;
    }
    // Nothing to find: the table as the room leaves it.
    for (Py_ssize_t j = k - 1; j >= 0; --j)
        if (taken[j]) remove_at(hand, j);
    long due = v[5] + v[6];  // _reveal_pending
    long pending = 0;
    if (ankan) {
        append(melds, meld);
        due += 1;
    } else {
        set_item(melds, pon_at, Py_NewRef(meld));
        if (truthy(get(table, T_KAN_DORA_NOW)))  // _open_kan_dora
            due += 1;
        else
            pending += 1;
        put(table, table_slots.at[T_IPPATSU_BEFORE_KAKAN], PyList_GetSlice(ippatsu, 0, PyList_GET_SIZE(ippatsu)));
        PyObject* offer_seats = get(table, T_OFFER_SEATS);
        PyObject* offer_kinds = get(table, T_OFFER_KINDS);
        if (!PyList_CheckExact(offer_seats) || !PyList_CheckExact(offer_kinds))
            throw py::type_error("run_hand: the table's offers must be lists");
        append(offer_seats, seat_o);
        const py::object added_kind = own(PyLong_FromLong(added >> 2));
        append(offer_kinds, added_kind.ptr());
    }
    put_long(table, T_KANS, v[3] + 1);
    put_long(table, T_KAN_SEATS, v[4] | (1L << s));
    put_long(table, T_DORA_DUE, due);
    put_long(table, T_DORA_PENDING, pending);
    put(table, table_slots.at[T_UNINTERRUPTED], new_bool(false));
    if (ippatsu_on)
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(ippatsu); ++j) set_item(ippatsu, j, new_bool(false));
    PyObject* offered = ankan ? PyTuple_GET_ITEM(tiles_o, 0) : slot_value(meld, added_slots.at[0]);
    const py::object how = own(PyLong_FromLong(ankan ? 3 : 1));  // state._OFFER_ANKAN, _OFFER_KAKAN
    put(table, table_slots.at[T_LAST_OFFER], PyTuple_Pack(3, seat_o, offered, how.ptr()));
    put_long(table, T_TO_ACT, -1);
    put(table, table_slots.at[T_TO_DRAW], Py_NewRef(seat_o));
    put(table, table_slots.at[T_RINSHAN_DUE], Py_NewRef(seat_o));
    return true;
}

// compare._meld_shape: a chi three kinds in a row of one suit, a pon three of a kind, a
// daiminkan four (``n`` tile ids in ``tiles``).
bool shape_ok(bool chi, bool pon, const long* tiles, Py_ssize_t n) {
    long k[4];
    if (n != (chi || pon ? 3 : 4)) return false;
    for (Py_ssize_t j = 0; j < n; ++j) k[j] = tiles[j] >> 2;
    std::sort(k, k + n);
    if (chi) return k[2] < 27 && k[0] / 9 == k[2] / 9 && k[1] == k[0] + 1 && k[2] == k[0] + 2;
    return k[0] == k[n - 1];
}

// The seat's sets (pons and kans: any meld but a chi or a kita) of a kind in
// [lo, hi] (compare._sets_of), and its kans; -1 when a meld is not as the Python keeps it.
int sets_of(PyObject* melds, long lo, long hi, PyObject* const* consts, int& kans) {
    int sets = 0;
    kans = 0;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(melds); ++j) {
        PyObject* x = PyList_GET_ITEM(melds, j);
        if (!meld_slots.of(Py_TYPE(x), kMeldNames)) return -1;
        PyObject* kind = slot_value(x, meld_slots.at[0]);
        PyObject* tiles = slot_value(x, meld_slots.at[1]);
        if (kind == nullptr || tiles == nullptr || !PyTuple_CheckExact(tiles)) return -1;
        kans += kind == consts[C_DAIMINKAN] || kind == consts[C_ANKAN] || kind == consts[C_KAKAN];
        if (kind == consts[C_CHI] || kind == consts[C_KITA] || PyTuple_GET_SIZE(tiles) == 0) continue;
        bool ok = true;
        const long k = item_long(PyTuple_GET_ITEM(tiles, 0), ok) >> 2;
        if (!ok) return -1;
        sets += k >= lo && k <= hi;
    }
    return sets;
}

constexpr const char* kOpenNames[2] = {"called", "from_seat"};
NamedSlots<2> open_slots;

// calls._open_call when it finds nothing: a chi, pon or daiminkan of the discard just
// made, by another seat (a chi: its right-hand neighbour's, where the rules allow chi),
// not in riichi, of the tiles it holds, the meld of its kind's shape; a daiminkan with a
// live tile left and at most the fourth kan.  Its pao (calls._liability) is made here
// too.  False (nothing changed) for anything else.  The core's run (play_moves) plays
// most chi and pon; what comes here is mostly the daiminkan and the pons of honors
// after which pao may be owed.
bool plain_open_call(PyObject* table, PyObject* ev, PyObject* const* consts, PyObject* chi_allowed) {
    if (!call_slots.of(Py_TYPE(ev), kCallNames)) return false;
    PyObject* seat_o = slot_value(ev, call_slots.at[0]);
    PyObject* meld = slot_value(ev, call_slots.at[1]);
    if (seat_o == nullptr || meld == nullptr || !meld_slots.of(Py_TYPE(meld), kMeldNames) ||
        !open_slots.of(Py_TYPE(meld), kOpenNames))
        return false;
    PyObject* kind = slot_value(meld, meld_slots.at[0]);
    PyObject* tiles_o = slot_value(meld, meld_slots.at[1]);
    PyObject* called_o = slot_value(meld, open_slots.at[0]);
    PyObject* frm_o = slot_value(meld, open_slots.at[1]);
    const bool chi = kind == consts[C_CHI];
    const bool pon = kind == consts[C_PON];
    const bool kan = kind == consts[C_DAIMINKAN];
    if ((!chi && !pon && !kan) || tiles_o == nullptr || called_o == nullptr || frm_o == nullptr ||
        get(table, T_JSON) != Py_False)
        return false;
    long s = 0, called = 0, frm = 0;
    long v[8];  // n, riichi_declared, live, kans, kan_seats, dora_due, dora_pending, to_act
    if (!as_long(seat_o, s) || !as_long(called_o, called) || !as_long(frm_o, frm) || s < 0 ||
        s >= 62 ||
        !longs_of(table, {T_N, T_RIICHI_DECLARED, T_LIVE, T_KANS, T_KAN_SEATS, T_DORA_DUE, T_DORA_PENDING, T_TO_ACT}, v))
        return false;
    // call_not_last_discard: the offer is the discard of ``called`` by ``frm``
    PyObject* lo = get(table, T_LAST_OFFER);
    long offerer = 0, offered = 0, how = 0;
    if (!PyTuple_CheckExact(lo) || PyTuple_GET_SIZE(lo) != 3 || !as_long(PyTuple_GET_ITEM(lo, 0), offerer) ||
        !as_long(PyTuple_GET_ITEM(lo, 1), offered) || !as_long(PyTuple_GET_ITEM(lo, 2), how) ||
        how != 0 || offerer != frm || offerer == s || offered != called)
        return false;
    if (chi && (!truthy(chi_allowed) || v[0] <= 0 || frm != ((s - 1) % v[0] + v[0]) % v[0])) return false;
    if (v[1] == s || (kan && (v[2] <= 0 || v[3] >= 4))) return false;  // riichi declaring; kan_empty_wall, fifth_kan
    PyObject* hand = list_at(get(table, T_CONCEALED), s);
    PyObject* riichi = list_at(get(table, T_RIICHI), s);
    PyObject* melds = list_at(get(table, T_MELDS), s);
    PyObject* pao = list_at(get(table, T_PAO), s);
    PyObject* nagashi = get(table, T_NAGASHI);
    PyObject* ippatsu = get(table, T_IPPATSU);
    if (hand == nullptr || !PyList_CheckExact(hand) || riichi != Py_False || melds == nullptr ||
        !PyList_CheckExact(melds) || pao == nullptr || !PyList_CheckExact(pao) ||
        !PyList_CheckExact(nagashi) || !PyList_CheckExact(ippatsu))
        return false;
    bool ippatsu_on = false;
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(ippatsu); ++j) {
        PyObject* f = PyList_GET_ITEM(ippatsu, j);
        if (f != Py_True && f != Py_False) return false;
        ippatsu_on = ippatsu_on || f == Py_True;
    }
    long tiles[4];
    const Py_ssize_t nt = tile_ids(tiles_o, tiles, 4);
    if (nt < 0 || !shape_ok(chi, pon, tiles, nt)) return false;  // call_not_held
    long ids[kMaxHand];
    const Py_ssize_t k = tile_ids(hand, ids, kMaxHand);
    if (k < 0) return false;
    bool taken[kMaxHand] = {};
    bool called_seen = false;
    for (Py_ssize_t j = 0; j < nt; ++j) {  // every tile but the called one, from the hand
        if (!called_seen && tiles[j] == called) {
            called_seen = true;
            continue;
        }
        const Py_ssize_t at = index_of(ids, k, tiles[j], taken);
        if (at < 0) return false;  // call_not_held
        taken[at] = true;
    }
    // Pao (calls._liability), counted with this meld: the third dragon set, the fourth
    // wind set, a daiminkan's fourth kan.
    const long kind34 = tiles[0] >> 2;
    const bool liable = !chi && (kan || kind34 >= 27);
    long pao_ids[2];
    int paos = 0;
    if (liable) {
        const bool dragon = kind34 >= 31;
        int kans = 0;
        const int sets = sets_of(melds, dragon ? 31 : 27, dragon ? 33 : 30, consts, kans);
        if (sets < 0) return false;
        const bool in_kinds = kind34 >= 27;
        if (in_kinds && sets + 1 == (dragon ? 3 : 4)) pao_ids[paos++] = dragon ? 39 : 49;  // daisangen, daisuushii
        if (kan && kans + 1 == 4) pao_ids[paos++] = 51;  // suukantsu
    }
    // Nothing to find: the table as the room leaves it.
    for (Py_ssize_t j = k - 1; j >= 0; --j)
        if (taken[j]) remove_at(hand, j);
    if (frm >= 0 && frm < PyList_GET_SIZE(nagashi)) set_item(nagashi, frm, new_bool(false));
    append(melds, meld);
    for (int j = 0; j < paos; ++j) {
        const py::object yakuman = own(PyLong_FromLong(pao_ids[j]));
        const py::object entry = own(PyTuple_Pack(2, yakuman.ptr(), frm_o));
        append(pao, entry.ptr());
    }
    put(table, table_slots.at[T_UNINTERRUPTED], new_bool(false));
    if (ippatsu_on)
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(ippatsu); ++j) set_item(ippatsu, j, new_bool(false));
    put(table, table_slots.at[T_LAST_OFFER], Py_NewRef(Py_None));
    if (kan) {
        put_long(table, T_KANS, v[3] + 1);
        put_long(table, T_KAN_SEATS, v[4] | (1L << s));
        long due = v[5] + v[6];  // _reveal_pending, then _open_kan_dora
        long pending = 0;
        if (truthy(get(table, T_KAN_DORA_NOW)))
            due += 1;
        else
            pending += 1;
        put_long(table, T_DORA_DUE, due);
        put_long(table, T_DORA_PENDING, pending);
        put_long(table, T_TO_ACT, -1);
        put(table, table_slots.at[T_TO_DRAW], Py_NewRef(seat_o));
        put(table, table_slots.at[T_RINSHAN_DUE], Py_NewRef(seat_o));
    } else {
        put_long(table, T_TO_DRAW, -1);
        put(table, table_slots.at[T_TO_ACT], Py_NewRef(seat_o));
        put(table, table_slots.at[T_AFTER_CALL], new_bool(true));
    }
    return true;
}

// _Results._abort_ok for the abortive draws it answers from the table alone (kyuushu,
// four riichi, four winds, four kans): True or False as it answers; nullptr for a triple
// ron (its winners' hands are the Python's to test) or anything not as it keeps it.
PyObject* abort_ok(PyObject* table, PyObject* kind, PyObject* const* consts) {
    auto is = [&](const char* name) { return PyUnicode_CompareWithASCIIString(kind, name) == 0; };
    if (is("yao9")) {
        long s = 0;
        if (!as_long(get(table, T_TO_ACT), s)) return nullptr;
        if (s < 0 || truthy(get(table, T_AFTER_CALL)) || !truthy(get(table, T_UNINTERRUPTED))) return Py_False;
        PyObject* discarded = list_at(get(table, T_DISCARDED), s);
        PyObject* hand = list_at(get(table, T_CONCEALED), s);
        unsigned long long th = 0;
        if (discarded == nullptr || hand == nullptr || !read_mask(consts[C_TH_MASK], th)) return nullptr;
        if (truthy(discarded)) return Py_False;
        long ids[kMaxHand];
        const Py_ssize_t k = tile_ids(hand, ids, kMaxHand);
        if (k < 0 || !PyList_CheckExact(hand)) return nullptr;
        unsigned long long kinds = 0;
        for (Py_ssize_t j = 0; j < k; ++j) kinds |= 1ULL << (ids[j] >> 2);
        return k == 14 && __builtin_popcountll(kinds & th) >= 9 ? Py_True : Py_False;
    }
    if (is("reach4")) {
        PyObject* accepted = get(table, T_RIICHI_ACCEPTED);
        if (!PyList_CheckExact(accepted)) return nullptr;
        return PyList_GET_SIZE(accepted) == 4 ? Py_True : Py_False;
    }
    if (is("kan4")) {
        long kans = 0, seats = 0;
        if (!as_long(get(table, T_KANS), kans) || !as_long(get(table, T_KAN_SEATS), seats)) return nullptr;
        return kans == 4 && (seats & (seats - 1)) != 0 ? Py_True : Py_False;
    }
    if (is("kaze4")) {
        PyObject* kinds = get(table, T_OFFER_KINDS);
        PyObject* seats = get(table, T_OFFER_SEATS);
        if (!PyList_CheckExact(kinds) || !PyList_CheckExact(seats)) return nullptr;
        if (!truthy(get(table, T_UNINTERRUPTED)) || PyList_GET_SIZE(kinds) != 4) return Py_False;
        long k[4], seen_seats = 0;
        const Py_ssize_t n_seats = PyList_GET_SIZE(seats);
        for (int j = 0; j < 4; ++j)
            if (!as_long(PyList_GET_ITEM(kinds, j), k[j])) return nullptr;
        for (Py_ssize_t j = 0; j < n_seats; ++j) {
            long s = 0;
            if (!as_long(PyList_GET_ITEM(seats, j), s) || s < 0 || s >= 62) return nullptr;
            seen_seats |= 1L << s;
        }
        const bool four_seats = n_seats >= 4 && __builtin_popcountl(static_cast<unsigned long>(seen_seats)) == 4;
        const bool winds = k[0] >= 27 && k[0] <= 30 && k[1] == k[0] && k[2] == k[0] && k[3] == k[0];
        return four_seats && winds ? Py_True : Py_False;
    }
    return nullptr;
}

// Whether an abortive draw shows the seats results.py's _shown_due names (a kyuushu the
// declarer ``to_act``, four riichi every seat, four winds and four kans none); false
// for anything else, which the Python room then decides.
bool shown_as_due(PyObject* shown, long to_act, PyObject* kind, long n) {
    if (!PyTuple_CheckExact(shown)) return false;
    const Py_ssize_t m = PyTuple_GET_SIZE(shown);
    auto seat_at = [&](Py_ssize_t j, long want) {
        PyObject* pair = PyTuple_GET_ITEM(shown, j);
        long seat = 0;
        return PyTuple_CheckExact(pair) && PyTuple_GET_SIZE(pair) == 2 &&
               as_long(PyTuple_GET_ITEM(pair, 0), seat) && seat == want;
    };
    auto is = [&](const char* name) { return PyUnicode_CompareWithASCIIString(kind, name) == 0; };
    if (is("yao9")) return to_act >= 0 && m == 1 && seat_at(0, to_act);
    if (is("reach4")) {
        if (m != n) return false;
        for (Py_ssize_t j = 0; j < m; ++j)
            if (!seat_at(j, static_cast<long>(j))) return false;
        return true;
    }
    return (is("kaze4") || is("kan4")) && m == 0;
}

// _Results._draw_result for an abortive draw other than a triple ron: it finds nothing,
// and its ResultReplay carries whether the draw's condition held.  An empty object
// where abort_ok leaves it to the Python.
py::object plain_abort(PyObject* table, PyObject* r, PyObject* make, PyObject* const* consts) {
    if (!draw_slots.of(Py_TYPE(r), kDrawNames)) return {};
    PyObject* kind = slot_value(r, draw_slots.at[0]);
    PyObject* shown = slot_value(r, draw_slots.at[1]);
    if (kind == nullptr || shown == nullptr || !PyUnicode_CheckExact(kind)) return {};
    // the hands a kyuushu or four-riichi draw shows: results.py's _SHOWN_CHECKED
    const bool checked = PyUnicode_CompareWithASCIIString(kind, "yao9") == 0 ||
                         PyUnicode_CompareWithASCIIString(kind, "reach4") == 0;
    long n = 0, to_act = 0;
    if (!as_long(get(table, T_N), n) || !as_long(get(table, T_TO_ACT), to_act)) return {};
    const bool yao9 = PyUnicode_CompareWithASCIIString(kind, "yao9") == 0;
    if (to_act >= 0 && !yao9) return {};  // draw_mid_turn: the Python finds it
    if (checked && shown != Py_None && !shown_as_held(shown, get(table, T_CONCEALED), n)) return {};
    if (shown != Py_None && !shown_as_due(shown, yao9 ? to_act : -1, kind, n)) return {};
    PyObject* ok = abort_ok(table, kind, consts);
    if (ok == nullptr) return {};
    py::object none_paid = own(PyTuple_New(0));
    PyObject* argv[6] = {consts[C_RESULT_REPLAY], r, Py_None, Py_None, ok, none_paid.ptr()};
    return own(PyObject_Vectorcall(make, argv, 6, nullptr));
}

}  // namespace replay_audit::core::hand
