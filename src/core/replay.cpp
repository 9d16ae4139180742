// The replay's hot loop (replay.hpp): the common case of replay_audit.replay.moves._moves,
// which stays the reference (tests/test_core_replay.py holds them equal on the corpus).
// Raw CPython calls on the replay's lists: the state stays Python's, nothing is copied.
// This file: the run (play) with its riichi steps and calls; the other core steps of the
// replay are in replay_calls.cpp.
#include "replay.hpp"

#include "hand_events.hpp"
#include "replay_plumbing.hpp"
#include "waits.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// The table's slots read or written here (replay_audit.replay.state._TableState).
enum PlaySlot {
    kCoreLists, kN, kToDraw, kToAct, kAfterCall, kLive, kRinshanDue, kLiveDrawn, kWall,
    kWallOk, kRiichiDeclared, kDoraPending, kIndicators, kDoraDue, kDrawnRinshan,
    kLastOffer, kUninterrupted, kSticks, kRinshanDrawn, kRinshanFromLive,
    kIppatsuBeforeKakan, kPlaySlots
};
constexpr const char* kPlaySlotNames[kPlaySlots] = {
    "core_lists", "n", "to_draw", "to_act", "after_call", "live", "rinshan_due",
    "live_drawn", "wall", "wall_ok", "riichi_declared", "dora_pending", "indicators",
    "dora_due", "drawn_rinshan", "last_offer", "uninterrupted", "sticks", "rinshan_drawn",
    "rinshan_from_live", "ippatsu_before_kakan"};
constexpr const char* kEventNames[2] = {"seat", "tile"};
constexpr const char* kRiichiEventNames[1] = {"seat"};

// What riichi needs besides the table: the REACH classes and the riichi cost.
struct RiichiArgs {
    PyObject* declare_cls = nullptr;
    PyObject* accept_cls = nullptr;
    long cost = 0;
    // Chi and pon (calls._open_call): the Call class, MeldKind.CHI and .PON, rules.chi.
    PyObject* call_cls = nullptr;
    PyObject* chi = nullptr;
    PyObject* pon = nullptr;
    bool chi_allowed = false;
};

constexpr const char* kCallNames[2] = {"seat", "meld"};
constexpr const char* kMeldNames[4] = {"kind", "tiles", "called", "from_seat"};

// compare._meld_shape for chi (three kinds in a row of one suit) and pon (three of a kind).
bool meld_shape_ok(bool chi, long a, long b, long c) {
    long k[3] = {a >> 2, b >> 2, c >> 2};
    if (k[0] > k[1]) std::swap(k[0], k[1]);
    if (k[1] > k[2]) std::swap(k[1], k[2]);
    if (k[0] > k[1]) std::swap(k[0], k[1]);
    if (!chi) return k[0] == k[2];
    return k[2] < 27 && k[0] / 9 == k[2] / 9 && k[1] == k[0] + 1 && k[2] == k[0] + 2;
}

// Whether a discard of ``tile`` right after the seat's last call ``meld`` (a chi or pon)
// is one moves.kuikae_mask names, or the meld is not as the Python keeps it: the
// Python's to judge then (RuleSet.kuikae), so the core plays no such discard.
bool kuikae_suspect(PyObject* meld, Slots<4>& meld_slots, long tile, const RiichiArgs& rr) {
    if (meld == nullptr || !meld_slots.of(Py_TYPE(meld), kMeldNames)) return true;
    PyObject* kind = slot_value(meld, meld_slots.at[0]);
    PyObject* tiles = slot_value(meld, meld_slots.at[1]);
    PyObject* called_obj = slot_value(meld, meld_slots.at[2]);
    if (kind == nullptr || tiles == nullptr || called_obj == nullptr || !PyTuple_CheckExact(tiles) ||
        PyTuple_GET_SIZE(tiles) == 0)
        return true;
    bool ok = true;
    const long k = item_long(called_obj, ok) >> 2;
    const long lo = item_long(PyTuple_GET_ITEM(tiles, 0), ok) >> 2;
    if (!ok || (kind != rr.chi && kind != rr.pon)) return true;
    const long d = tile >> 2;
    if (d == k) return true;
    if (kind != rr.chi) return false;
    return (k == lo && lo % 9 < 6 && d == lo + 3) || (k == lo + 2 && lo % 9 > 0 && d == lo - 1);
}

// The first item of ``hand`` equal to ``tile`` (list.remove's), or -1; ``ok`` false
// when an item before it is no int.  Tile ids are cached small ints: an item that is
// one but not ``tile``'s own is another value, known from its address alone.
Py_ssize_t find_tile(PyObject* hand, PyObject* tile_ptr, long tile, bool& ok) {
    const SmallInts& small = SmallInts::get();
    PyObject* const same = tile >= 0 && tile < 136 ? small.object(tile) : nullptr;
    PyObject* const* items = reinterpret_cast<PyListObject*>(hand)->ob_item;
    const Py_ssize_t size = PyList_GET_SIZE(hand);
    for (Py_ssize_t j = 0; j < size; ++j) {
        PyObject* held = items[j];
        if (held == tile_ptr || held == same) return j;
        if (small.holds(held)) continue;
        const long v = item_long(held, ok);
        if (!ok) return -1;
        if (v == tile) return j;
    }
    return -1;
}

// Whether ``hand`` without its item ``skip``, the riichi discard, waits on anything
// (replay.waits.wait_mask not 0: has_wait, which stops at the first wait).  -1: not for
// the core (an item that is no tile id, a kind more than four times).
int riichi_tenpai(PyObject* hand, Py_ssize_t skip) {
    std::uint8_t counts[kNumKinds] = {};
    const Py_ssize_t size = PyList_GET_SIZE(hand);
    for (Py_ssize_t j = 0; j < size; ++j) {
        if (j == skip) continue;
        bool ok = true;
        const long t = item_long(PyList_GET_ITEM(hand, j), ok);
        if (!ok || t < 0 || t >= 4 * kNumKinds || ++counts[t >> 2] > 4) return -1;
    }
    return has_wait(counts) ? 1 : 0;
}

// The per-seat items a run reads or changes at each move, held in C for the run and
// written back to their lists once at its end (a list item and an int object per
// discard cost more than the rest of it, measured): the seat's last draw, riichi flag,
// discarded flag, discard mask, last discard's position and nagashi.  The items are
// borrowed: the lists or the events hold them until the write-back.
struct Seat {
    PyObject* last_draw = nullptr;
    PyObject* riichi = nullptr;
    PyObject* discarded = nullptr;
    unsigned long long mask = 0;
    long last_disc_pos = 0;
    bool mask_ok = false;  // the list's mask an int the core reads (else discards decline)
    bool drew = false, declared = false, discarded_set = false, mask_set = false;
    bool pos_set = false, nagashi_off = false;
};

// The run itself; returns the index reached, or -1 if the first move was declined
// (then nothing was changed).
Py_ssize_t play(PyObject* table, PyObject* events, Py_ssize_t i, PyObject* draw_cls,
                PyObject* discard_cls, unsigned long long th_mask, const RiichiArgs& rr) {
    static Slots<kPlaySlots> table_slots;
    static Slots<2> draw_slots, discard_slots;
    static Slots<1> declare_slots, accept_slots;
    static Slots<2> call_slots;
    static Slots<4> meld_slots;
    if (!table_slots.of(Py_TYPE(table), kPlaySlotNames))
        throw py::type_error("play_moves: the table must be a replay.state._TableState");
    const Py_ssize_t* at = table_slots.at;
    EventSeq evs(events);
    if (!evs.ok()) throw py::type_error("play_moves: events must be a tuple or HandEvents");
    PyObject* lists = slot_value(table, at[kCoreLists]);
    if (lists == nullptr || !PyTuple_CheckExact(lists) || PyTuple_GET_SIZE(lists) != kCoreListCount)
        throw py::value_error("play_moves: the table's core_lists must be a tuple of 17");
    PyObject* seen = PyTuple_GET_ITEM(lists, 0);
    PyObject* concealed = PyTuple_GET_ITEM(lists, 1);
    PyObject* last_draw = PyTuple_GET_ITEM(lists, 2);
    PyObject* riichi = PyTuple_GET_ITEM(lists, 3);
    PyObject* ippatsu = PyTuple_GET_ITEM(lists, 4);
    PyObject* discards = PyTuple_GET_ITEM(lists, 5);
    PyObject* disc_mask = PyTuple_GET_ITEM(lists, 6);
    PyObject* nagashi = PyTuple_GET_ITEM(lists, 7);
    PyObject* last_disc_pos = PyTuple_GET_ITEM(lists, 8);
    PyObject* offer_seats = PyTuple_GET_ITEM(lists, 9);
    PyObject* offer_kinds = PyTuple_GET_ITEM(lists, 10);
    PyObject* discarded = PyTuple_GET_ITEM(lists, 11);
    PyObject* riichi_pos = PyTuple_GET_ITEM(lists, 12);
    PyObject* riichi_double = PyTuple_GET_ITEM(lists, 13);
    PyObject* scores = PyTuple_GET_ITEM(lists, 14);
    PyObject* riichi_accepted = PyTuple_GET_ITEM(lists, 15);
    PyObject* melds = PyTuple_GET_ITEM(lists, 16);
    const PyObject* lists_needed[] = {concealed,   last_draw,     riichi,        ippatsu,
                                      discards,    disc_mask,     nagashi,       last_disc_pos,
                                      offer_seats, offer_kinds,   discarded,     riichi_pos,
                                      riichi_double, scores,      riichi_accepted, melds};
    for (const PyObject* l : lists_needed)
        if (!PyList_CheckExact(const_cast<PyObject*>(l)))
            throw py::type_error("play_moves: the state must be lists");
    if (!PyByteArray_CheckExact(seen) || PyByteArray_GET_SIZE(seen) != 136)
        throw py::type_error("play_moves: seen must be a bytearray of 136");
    char* const seen_bytes = PyByteArray_AS_STRING(seen);
    const long n = slot_long(table, at[kN]);
    long to_draw = slot_long(table, at[kToDraw]);
    long to_act = slot_long(table, at[kToAct]);
    bool after_call = slot_true(table, at[kAfterCall]);
    long live = slot_long(table, at[kLive]);
    long rinshan_due = slot_long(table, at[kRinshanDue]);
    long live_drawn = slot_long(table, at[kLiveDrawn]);
    PyObject* hand_wall = slot_value(table, at[kWall]);
    if (hand_wall == nullptr) throw py::type_error("play_moves: a table slot is unset");
    const bool check_wall = hand_wall != Py_None && slot_true(table, at[kWallOk]);
    long riichi_declared = slot_long(table, at[kRiichiDeclared]);
    bool uninterrupted = slot_true(table, at[kUninterrupted]);
    long sticks = slot_long(table, at[kSticks]);
    // dora_shown: every kan dora due is shown (moves._moves asks it of a replacement
    // draw); dora_ok: that, and none pending either (a discard's _discard_dora).
    PyObject* indicators = slot_value(table, at[kIndicators]);
    if (indicators == nullptr) throw py::type_error("play_moves: a table slot is unset");
    const Py_ssize_t shown = PyObject_Length(indicators);
    if (shown < 0) throw py::error_already_set();
    const bool dora_shown = shown == slot_long(table, at[kDoraDue]);
    bool dora_ok = dora_shown && !slot_true(table, at[kDoraPending]);
    bool drawn_rinshan = slot_true(table, at[kDrawnRinshan]);
    long rinshan_drawn = slot_long(table, at[kRinshanDrawn]);
    const bool rinshan_from_live = slot_true(table, at[kRinshanFromLive]);
    bool rinshan_taken = false;  // a replacement draw made: ippatsu_before_kakan is None
    py::object wall_obj, rinshan_obj;
    PyObject* wall = nullptr;
    PyObject* wall_rinshan = nullptr;
    if (check_wall) {
        // replay.walls._HandWall's ``live`` and ``rinshan``: slots, read at their
        // offsets (else getattr).
        static Slots<2> wall_slots;
        static constexpr const char* kWallNames[2] = {"live", "rinshan"};
        const bool slotted = wall_slots.of(Py_TYPE(hand_wall), kWallNames);
        auto wall_part = [&](int j, py::object& held) -> PyObject* {
            if (slotted && slot_value(hand_wall, wall_slots.at[j]) != nullptr)
                return slot_value(hand_wall, wall_slots.at[j]);  // borrowed: the wall holds it
            held = py::reinterpret_steal<py::object>(PyObject_GetAttrString(hand_wall, kWallNames[j]));
            if (!held) throw py::error_already_set();
            return held.ptr();
        };
        wall = wall_part(0, wall_obj);
        wall_rinshan = wall_part(1, rinshan_obj);
        if (!PyTuple_CheckExact(wall) || !PyTuple_CheckExact(wall_rinshan))
            throw py::type_error("play_moves: the wall's live and rinshan tiles must be tuples");
    }
    const Py_ssize_t seats = PyList_GET_SIZE(concealed);
    if (n <= 0 || PyList_GET_SIZE(last_draw) < seats || PyList_GET_SIZE(riichi) < seats ||
        PyList_GET_SIZE(ippatsu) < seats || PyList_GET_SIZE(discards) < seats ||
        PyList_GET_SIZE(disc_mask) < seats || PyList_GET_SIZE(nagashi) < seats ||
        PyList_GET_SIZE(last_disc_pos) < seats || PyList_GET_SIZE(discarded) < seats ||
        PyList_GET_SIZE(riichi_pos) < seats || PyList_GET_SIZE(riichi_double) < seats ||
        PyList_GET_SIZE(melds) < seats)
        throw py::value_error("play_moves: every per-seat list needs a slot per seat");
    if (seats > kMaxSeats) return -1;
    Seat seat_state[kMaxSeats];
    for (Py_ssize_t s = 0; s < seats; ++s) {
        Seat& st = seat_state[s];
        st.last_draw = PyList_GET_ITEM(last_draw, s);
        st.riichi = PyList_GET_ITEM(riichi, s);
        st.discarded = PyList_GET_ITEM(discarded, s);
        st.mask_ok = read_mask(PyList_GET_ITEM(disc_mask, s), st.mask);
    }
    const SmallInts& small = SmallInts::get();

    PyTypeObject* draw_t = reinterpret_cast<PyTypeObject*>(draw_cls);
    PyTypeObject* discard_t = reinterpret_cast<PyTypeObject*>(discard_cls);
    PyTypeObject* declare_t = reinterpret_cast<PyTypeObject*>(rr.declare_cls);
    PyTypeObject* accept_t = reinterpret_cast<PyTypeObject*>(rr.accept_cls);
    evs.read_as(events, draw_t, discard_t);
    const Py_ssize_t n_ev = evs.size();
    int last = 0;
    long last_seat = -1, last_tile = -1;
    PyObject* last_seat_obj = nullptr;  // the last discard's seat and tile (borrowed)
    PyObject* last_tile_obj = nullptr;
    for (; i < n_ev; ++i) {
        // The events were built before the replay and are no longer in the nearest
        // cache: ask for one a few moves ahead (reading each one's type was a fifth of
        // this loop's own time).
        // (a lazy draw or discard has no object: its record is read in place)
        evs.prefetch(i + 4);
        PyObject* ev = evs.object(i);
        PyTypeObject* tp = evs.type(i);
        if (tp == draw_t || tp == discard_t) {
            PyObject* seat_obj;
            PyObject* tile_ptr;  // borrowed: the event (or, lazy, the int cache) holds it
            if (ev != nullptr) {
                Slots<2>& es = tp == draw_t ? draw_slots : discard_slots;
                if (!es.of(tp, kEventNames)) break;
                seat_obj = slot_value(ev, es.at[0]);
                tile_ptr = slot_value(ev, es.at[1]);
            } else {
                seat_obj = lazy_int(evs.record(i).seat);
                tile_ptr = lazy_int(evs.record(i).tile);
            }
            if (seat_obj == nullptr || tile_ptr == nullptr) break;
            bool ints = true;
            const long s = item_long(seat_obj, ints);
            const long tile = item_long(tile_ptr, ints);
            if (!ints || s < 0 || s >= seats || tile < 0 || tile >= 136) break;
            PyObject* hand = PyList_GET_ITEM(concealed, s);
            if (!PyList_CheckExact(hand)) break;
            Seat& st = seat_state[s];
            if (tp == draw_t) {
                // moves._moves, a draw: in turn, a live tile left, not seen, as the
                // rebuilt wall has it; a replacement draw (rinshan) likewise, from the
                // wall's rinshan tiles, with no live tile needed.  Anything else is
                // Python's to find.
                const bool rinshan = rinshan_due == s;
                if (s != to_draw || (!rinshan && live <= 0)) break;
                // a kan dora due and not shown: moves._moves judges the replacement draw
                if (rinshan && !dora_shown) break;
                if (check_wall) {
                    PyObject* from = rinshan ? wall_rinshan : wall;
                    const long j = rinshan ? rinshan_drawn : live_drawn;
                    if (j >= PyTuple_GET_SIZE(from)) break;
                    bool ok = true;
                    long expect = item_long(PyTuple_GET_ITEM(from, j), ok);
                    if (!ok || expect != tile) break;
                }
                // The last check, so that it can mark the tile: met before, declined as is.
                if (seen_bytes[tile] != 0) break;
                seen_bytes[tile] = 1;
                rinshan_due = -1;
                if (rinshan) {
                    rinshan_taken = true;
                    rinshan_drawn += 1;
                    if (rinshan_from_live) live -= 1;
                } else {
                    live -= 1;
                    live_drawn += 1;
                }
                append(hand, tile_ptr);
                st.last_draw = tile_ptr;
                st.drew = true;
                drawn_rinshan = rinshan;
                to_draw = -1;
                to_act = s;
                after_call = false;
                last = 1;
                last_seat = -1;
                continue;
            }
            // moves._moves, a discard: in turn, the tile held as is, no riichi being
            // declared, no kan dora due; after riichi only the drawn tile.
            const bool declaring = riichi_declared == s;
            if (s != to_act || !dora_ok) break;
            if (st.riichi != Py_True && st.riichi != Py_False) break;
            const bool in_riichi = st.riichi == Py_True;
            if (in_riichi) {
                bool ok = true;
                long drawn = item_long(st.last_draw, ok);
                if (!ok || after_call || tile != drawn) break;
            }
            if (after_call) {  // moves.kuikae_mask
                PyObject* seat_melds = PyList_GET_ITEM(melds, s);
                const Py_ssize_t m = PyList_CheckExact(seat_melds) ? PyList_GET_SIZE(seat_melds) : 0;
                if (m == 0 || kuikae_suspect(PyList_GET_ITEM(seat_melds, m - 1), meld_slots, tile, rr)) break;
            }
            // list.remove's first equal item.
            bool ok = true;
            const Py_ssize_t found = find_tile(hand, tile_ptr, tile, ok);
            if (!ok || found < 0) break;
            // The riichi discard: it must leave a wait (else Python finds riichi_not_tenpai).
            if (declaring && riichi_tenpai(hand, found) <= 0) break;
            PyObject* disc_flag = st.discarded;
            if (declaring && disc_flag != Py_True && disc_flag != Py_False) break;
            if (!st.mask_ok) break;
            remove_at(hand, found);
            const long kind = tile >> 2;
            const Py_ssize_t offered = PyList_GET_SIZE(offer_kinds);
            if (declaring) {
                set_item(riichi_pos, s, PyLong_FromSsize_t(offered));
                set_item(riichi_double, s, new_bool(uninterrupted && disc_flag == Py_False));
            }
            if (in_riichi && PyList_GET_ITEM(ippatsu, s) != Py_False) {
                Py_INCREF(Py_False);
                set_item(ippatsu, s, Py_False);
            }
            append(PyList_GET_ITEM(discards, s), tile_ptr);
            if (!((st.mask >> kind) & 1ULL)) {  // a kind discarded before keeps its int
                st.mask |= 1ULL << kind;
                st.mask_set = true;
            }
            if (!((th_mask >> kind) & 1ULL)) st.nagashi_off = true;
            st.last_disc_pos = static_cast<long>(offered);
            st.pos_set = true;
            append(offer_seats, seat_obj);
            PyObject* kind_obj = small.object(kind);
            if (kind_obj != nullptr) {
                append(offer_kinds, kind_obj);
            } else {
                py::object k = py::reinterpret_steal<py::object>(PyLong_FromLong(kind));
                if (!k) throw py::error_already_set();
                append(offer_kinds, k.ptr());
            }
            st.discarded = Py_True;
            st.discarded_set = true;
            to_act = -1;
            after_call = false;
            to_draw = (s + 1) % n;
            last = 2;
            last_seat = s;
            last_tile = tile;
            last_seat_obj = seat_obj;
            last_tile_obj = tile_ptr;
            continue;
        }
        if (last != 0 && (tp == declare_t || tp == accept_t)) {
            // riichi._riichi_declare / _riichi_accept when they find nothing; never the
            // first event (the table's loop sends only draws and discards here).
            Slots<1>& rs = tp == declare_t ? declare_slots : accept_slots;
            if (!rs.of(tp, kRiichiEventNames)) break;
            bool ok = true;
            const long s = item_long(slot_value(ev, rs.at[0]) ? slot_value(ev, rs.at[0]) : Py_None, ok);
            if (!ok || s < 0 || s >= seats) break;
            Seat& st = seat_state[s];
            PyObject* flag = st.riichi;
            if (flag != Py_True && flag != Py_False) break;
            const Py_ssize_t n_scores = PyList_GET_SIZE(scores);
            long score = 0;
            if (s < n_scores) {
                score = item_long(PyList_GET_ITEM(scores, s), ok);
                if (!ok) break;
            }
            if (tp == declare_t) {
                PyObject* seat_melds = PyList_GET_ITEM(melds, s);
                if (s != to_act || after_call || flag == Py_True || riichi_declared >= 0 ||
                    !PyList_CheckExact(seat_melds) || PyList_GET_SIZE(seat_melds) != 0 ||
                    (s < n_scores && score < rr.cost) || live < 4)
                    break;
                riichi_declared = s;
            } else {
                // riichi._riichi_accept: declared, right after the riichi discard
                if (riichi_declared != s || last != 2 || last_seat != s) break;
                riichi_declared = -1;
                if (flag == Py_False) {
                    st.riichi = Py_True;
                    st.declared = true;
                    Py_INCREF(Py_True);
                    set_item(ippatsu, s, Py_True);
                    py::object seat = py::reinterpret_steal<py::object>(PyLong_FromLong(s));
                    append(riichi_accepted, seat.ptr());
                    sticks += 1;
                    if (s < n_scores) set_item(scores, s, PyLong_FromLong(score - rr.cost));
                }
            }
            continue;
        }
        if (tp == reinterpret_cast<PyTypeObject*>(rr.call_cls) && last == 2) {
            // calls._open_call, a chi or pon of the discard just made that finds nothing
            // and cannot make pao; nothing else.
            if (!call_slots.of(tp, kCallNames)) break;
            PyObject* seat_obj = slot_value(ev, call_slots.at[0]);
            PyObject* meld = slot_value(ev, call_slots.at[1]);
            if (seat_obj == nullptr || meld == nullptr) break;
            if (!meld_slots.of(Py_TYPE(meld), kMeldNames)) break;
            PyObject* kind = slot_value(meld, meld_slots.at[0]);
            PyObject* tiles = slot_value(meld, meld_slots.at[1]);
            PyObject* called_obj = slot_value(meld, meld_slots.at[2]);
            PyObject* frm_obj = slot_value(meld, meld_slots.at[3]);
            const bool chi = kind == rr.chi;
            if (kind == nullptr || (!chi && kind != rr.pon) || tiles == nullptr ||
                !PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) != 3 ||
                called_obj == nullptr || frm_obj == nullptr)
                break;
            bool ok = true;
            const long s = item_long(seat_obj, ok);
            const long called = item_long(called_obj, ok);
            const long frm = item_long(frm_obj, ok);
            long t[3];
            for (int k = 0; k < 3; ++k) t[k] = item_long(PyTuple_GET_ITEM(tiles, k), ok);
            if (!ok || s < 0 || s >= seats || frm != last_seat || frm == s ||
                called != last_tile || riichi_declared == s)
                break;
            if (chi && (!rr.chi_allowed || frm != ((s - 1) % n + n) % n)) break;
            bool ids = true;
            for (const long x : t) ids = ids && x >= 0 && x < 136;
            if (!ids || !meld_shape_ok(chi, t[0], t[1], t[2])) break;
            if (seat_state[s].riichi != Py_False) break;
            PyObject* seat_melds = PyList_GET_ITEM(melds, s);
            if (!PyList_CheckExact(seat_melds)) break;
            // A pon of a dragon or wind (state._PAO_KINDS) can complete a pao set only
            // when the seat has called at least two (dragons) or three (winds) sets
            // before it; then calls._liability is Python's to run.
            const long pao_needed = !chi && (t[0] >> 2) >= 31 ? 3 : 4;
            if (!chi && (t[0] >> 2) >= 27 && PyList_GET_SIZE(seat_melds) >= pao_needed - 1) break;
            // The two tiles from the hand: every tile but the first equal to ``called``.
            int from_hand[2];
            int m = 0;
            bool called_seen = false;
            for (int k = 0; k < 3; ++k) {
                if (!called_seen && t[k] == called) {
                    called_seen = true;
                } else if (m < 2) {
                    from_hand[m++] = k;
                }
            }
            if (!called_seen || m != 2 || t[from_hand[0]] == t[from_hand[1]]) break;
            PyObject* hand = PyList_GET_ITEM(concealed, s);
            if (!PyList_CheckExact(hand)) break;
            Py_ssize_t at_hand[2];
            for (int k = 0; k < 2; ++k) {
                const long want = t[from_hand[k]];
                at_hand[k] = find_tile(hand, PyTuple_GET_ITEM(tiles, from_hand[k]), want, ok);
            }
            if (!ok || at_hand[0] < 0 || at_hand[1] < 0) break;
            // Remove the later first, so the earlier index still holds.
            const Py_ssize_t hi = at_hand[0] > at_hand[1] ? at_hand[0] : at_hand[1];
            const Py_ssize_t lo = at_hand[0] > at_hand[1] ? at_hand[1] : at_hand[0];
            remove_at(hand, hi);
            remove_at(hand, lo);
            seat_state[frm].nagashi_off = true;
            append(seat_melds, meld);
            uninterrupted = false;
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(ippatsu); ++k) {
                if (PyList_GET_ITEM(ippatsu, k) != Py_False) {
                    Py_INCREF(Py_False);
                    set_item(ippatsu, k, Py_False);
                }
            }
            to_draw = -1;
            to_act = s;
            after_call = true;
            last = 3;  // no offer: a call takes it
            last_seat = -1;
            continue;
        }
        break;
    }
    if (last == 0) return -1;
    // The seats' items, back in their lists.
    for (Py_ssize_t s = 0; s < seats; ++s) {
        const Seat& st = seat_state[s];
        if (st.drew) {
            Py_INCREF(st.last_draw);
            set_item(last_draw, s, st.last_draw);
        }
        if (st.declared) {
            Py_INCREF(Py_True);
            set_item(riichi, s, Py_True);
        }
        if (st.discarded_set) {
            Py_INCREF(Py_True);
            set_item(discarded, s, Py_True);
        }
        if (st.mask_set) set_item(disc_mask, s, PyLong_FromUnsignedLongLong(st.mask));
        if (st.pos_set) set_item(last_disc_pos, s, PyLong_FromLong(st.last_disc_pos));
        if (st.nagashi_off) {
            Py_INCREF(Py_False);
            set_item(nagashi, s, Py_False);
        }
    }
    put(table, at[kToDraw], PyLong_FromLong(to_draw));
    put(table, at[kToAct], PyLong_FromLong(to_act));
    put(table, at[kAfterCall], new_bool(after_call));
    put(table, at[kLive], PyLong_FromLong(live));
    put(table, at[kRinshanDue], PyLong_FromLong(rinshan_due));
    put(table, at[kLiveDrawn], PyLong_FromLong(live_drawn));
    put(table, at[kDrawnRinshan], new_bool(drawn_rinshan));
    put(table, at[kRinshanDrawn], PyLong_FromLong(rinshan_drawn));
    if (rinshan_taken) put(table, at[kIppatsuBeforeKakan], Py_NewRef(Py_None));
    put(table, at[kRiichiDeclared], PyLong_FromLong(riichi_declared));
    put(table, at[kSticks], PyLong_FromLong(sticks));
    put(table, at[kUninterrupted], new_bool(uninterrupted));
    if (last == 2) {  // the run ended on a discard: that is the offer (_OFFER_DISCARD, 0)
        py::object zero = py::reinterpret_steal<py::object>(PyLong_FromLong(0));
        if (!zero) throw py::error_already_set();
        put(table, at[kLastOffer], PyTuple_Pack(3, last_seat_obj, last_tile_obj, zero.ptr()));
    } else {
        put(table, at[kLastOffer], Py_NewRef(Py_None));
    }
    return i;
}

}  // namespace

PyObject* play_moves(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 13)
            throw py::type_error(
                "play_moves(table, events, i, draw_cls, discard_cls, th_mask, declare_cls, "
                "accept_cls, riichi_cost, call_cls, chi, pon, chi_allowed)");
        const Py_ssize_t i = PyLong_AsSsize_t(args[2]);
        if (i == -1 && PyErr_Occurred()) throw py::error_already_set();
        unsigned long long th_mask = 0;
        if (!read_mask(args[5], th_mask)) {  // not an exact int: PyLong's own error
            th_mask = PyLong_AsUnsignedLongLong(args[5]);
            if (PyErr_Occurred()) throw py::error_already_set();
        }
        if (!PyType_Check(args[3]) || !PyType_Check(args[4]))
            throw py::type_error("play_moves: draw_cls and discard_cls must be classes");
        if (!PyType_Check(args[6]) || !PyType_Check(args[7]))
            throw py::type_error("play_moves: declare_cls and accept_cls must be classes");
        if (!PyType_Check(args[9])) throw py::type_error("play_moves: call_cls must be a class");
        RiichiArgs rr;
        rr.declare_cls = args[6];
        rr.accept_cls = args[7];
        rr.cost = PyLong_AsLong(args[8]);
        if (rr.cost == -1 && PyErr_Occurred()) throw py::error_already_set();
        rr.call_cls = args[9];
        rr.chi = args[10];
        rr.pon = args[11];
        const int allowed = PyObject_IsTrue(args[12]);
        if (allowed < 0) throw py::error_already_set();
        rr.chi_allowed = allowed != 0;
        return PyLong_FromSsize_t(play(args[0], args[1], i, args[3], args[4], th_mask, rr));
    });
}

}  // namespace replay_audit::core
