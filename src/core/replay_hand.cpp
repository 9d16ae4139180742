// One hand's event loop (replay_hand.hpp): replay_audit.replay.table._Table.run for an
// XML log, in one core call a hand instead of a Python ``while`` with its own dispatch.
// The state stays the table's (Python): runs of draws and discards go to the ``play``
// given (the core's play_moves), every other event to the table's own Python method (its
// rooms), and a win whose checks find nothing is made here, as ``_Results._win`` makes
// it; anything else about a win is left to ``_win``.  The Python ``run`` stays the
// reference (tests/test_core_replay_hand.py holds them equal on the corpus).
#include "replay_hand.hpp"

#include "hand_events.hpp"
#include "py_errors.hpp"
#include "replay_plumbing.hpp"
#include "slots.hpp"
#include "table_state.hpp"
#include "waits.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace py = pybind11;

namespace replay_audit::core {

namespace {


PyObject* interned(const char* s) {
    PyObject* out = PyUnicode_InternFromString(s);
    if (out == nullptr) throw py::error_already_set();
    return out;  // kept for the process's life
}

// The table's slots this file reads, found once per table class.
enum TableSlot {
    T_RESULTS,
    T_CONCEALED,
    T_IPPATSU,
    T_TO_ACT,
    T_AFTER_CALL,
    T_LAST_DRAW,
    T_DRAWN_RINSHAN,
    T_LIVE,
    T_UNINTERRUPTED,
    T_DISCARDED,
    T_HAND,
    T_LAST_OFFER,
    T_MELDS,
    T_RIICHI,
    T_WALL_DORA,
    T_INDICATORS,
    T_DORA_DUE,
    T_DEAD_URA,
    T_RIICHI_DOUBLE,
    T_N,
    T_PAO,
    T_FINDINGS,
    T_RIICHI_ACCEPTED,
    T_STICKS,
    T_SCORES,
    T_NAGASHI,
    T_JSON,
    T_CORE_LISTS,
    T_DORA_PENDING,
    T_RINSHAN_DUE,
    T_TO_DRAW,
    T_RIICHI_DECLARED,
    T_KANS,
    T_KAN_SEATS,
    T_KAN_DORA_NOW,
    T_IPPATSU_BEFORE_KAKAN,
    T_OFFER_SEATS,
    T_OFFER_KINDS,
    T_COUNT
};

constexpr const char* kTableNames[T_COUNT] = {
    "results",     "concealed", "ippatsu",      "to_act",     "after_call",
    "last_draw",   "drawn_rinshan", "live",     "uninterrupted", "discarded",
    "hand",        "last_offer", "melds",       "riichi",     "wall_dora",
    "indicators",  "dora_due",  "dead_ura",     "riichi_double", "n",
    "pao",         "findings",  "riichi_accepted", "sticks",  "scores",
    "nagashi",     "json",      "core_lists",   "dora_pending", "rinshan_due",
    "to_draw",     "riichi_declared", "kans",   "kan_seats",  "kan_dora_now",
    "ippatsu_before_kakan", "offer_seats", "offer_kinds"};

// The table class's, found once (slots.hpp); writable, since the rooms made here (an
// exhaustive draw, a kan, a new dora indicator) write some of them.
NamedSlots<T_COUNT, true> table_slots;

// A slot's value, borrowed; a TypeError while it is unset.
PyObject* get(PyObject* table, TableSlot which) {
    PyObject* v = slot_value(table, table_slots.at[which]);
    if (v == nullptr) throw py::type_error(std::string("run_hand: the table has no ") + kTableNames[which]);
    return v;
}

// ``a and b`` as Python gives it (a if a is false, else b); borrowed.
PyObject* py_and(PyObject* a, PyObject* b) {
    const int t = PyObject_IsTrue(a);
    if (t < 0) throw py::error_already_set();
    return t ? b : a;
}

bool truthy(PyObject* v) {
    const int t = PyObject_IsTrue(v);
    if (t < 0) throw py::error_already_set();
    return t != 0;
}

// An int object's value as a long, or false when it is no exact int.
bool as_long(PyObject* v, long& out) {
    if (v == nullptr || !PyLong_CheckExact(v)) return false;
    out = PyLong_AsLong(v);
    if (out == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return true;
}

// The item ``s`` of the list ``list`` (borrowed), or nullptr when ``list`` is no list or
// ``s`` is out of its range.
PyObject* list_at(PyObject* list, long s) {
    if (!PyList_CheckExact(list) || s < 0 || s >= PyList_GET_SIZE(list)) return nullptr;
    return PyList_GET_ITEM(list, s);
}

struct Names {
    PyObject* moves = interned("_moves");
    PyObject* call = interned("_call");
    PyObject* declare = interned("_riichi_declare");
    PyObject* accept = interned("_riichi_accept");
    PyObject* new_dora = interned("_new_dora");
    PyObject* win = interned("_win");
    PyObject* draw_result = interned("_draw_result");
    PyObject* check_wall_dora = interned("_check_wall_dora");
    PyObject* seat = interned("seat");
    PyObject* from_seat = interned("from_seat");
    PyObject* ura = interned("ura");
    PyObject* dealer = interned("dealer");
    PyObject* round_wind = interned("round_wind");
    PyObject* round_index = interned("round_index");
    PyObject* honba = interned("honba");
    PyObject* win_attr = interned("win");
    PyObject* riichi = interned("riichi");
    PyObject* wall = interned("wall");
    PyObject* log = interned("log");
    PyObject* events = interned("events");
    PyObject* findings = interned("findings");
};

const Names& names() {
    static const Names n;
    return n;
}

// The hand's round wind: HandLog.round_wind is the property ``round_index // 4``, worked
// out here from its int where it is an exact one (a Python call a win saved: 23,000 a
// Phoenix pass), else read as the property.
py::object round_wind_of(PyObject* log) {
    const Names& nm = names();
    py::object index = own(PyObject_GetAttr(log, nm.round_index));
    long i = 0;
    if (!as_long(index.ptr(), i)) return own(PyObject_GetAttr(log, nm.round_wind));
    return own(PyLong_FromLong(i >= 0 ? i / 4 : -((-i + 3) / 4)));  // floored, as // is
}

// table.<name>(*args): the table's own Python room for an event.
py::object call_method(PyObject* name, std::initializer_list<PyObject*> args) {
    PyObject* argv[4];
    Py_ssize_t k = 0;
    for (PyObject* a : args) argv[k++] = a;
    return own(PyObject_VectorcallMethod(name, argv, static_cast<size_t>(k), nullptr));
}

// The dora indicators shown so far (state._TableState._dora): the wall's when there is one.
py::object shown_dora(PyObject* table) {
    PyObject* due = get(table, T_DORA_DUE);
    const Py_ssize_t n = PyLong_AsSsize_t(due);  // a negative one slices as Python's would
    if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
    PyObject* wall_dora = get(table, T_WALL_DORA);
    PyObject* from = wall_dora != Py_None ? wall_dora : get(table, T_INDICATORS);
    py::object part = own(PySequence_GetSlice(from, 0, n));
    return own(PySequence_Tuple(part.ptr()));
}

// What run_hand reads of its classes (table.py's RunClasses, _RUN_CLASSES), by name.
enum Const {
    C_DRAW,
    C_DISCARD,
    C_TH_MASK,
    C_DECLARE,
    C_ACCEPT,
    C_CALL,
    C_CHI,
    C_PON,
    C_NEW_DORA,
    C_WIN,
    C_DRAW_RESULT,
    C_WIN_CONTEXT,
    C_RESULT_REPLAY,
    C_HAND_REPLAY,
    C_DRAW_CONTEXT,
    C_ANKAN,
    C_KAKAN,
    C_DAIMINKAN,
    C_KITA,
    C_COUNT
};
constexpr const char* kClassNames[C_COUNT] = {
    "draw", "discard", "th_mask", "riichi_declare", "riichi_accept", "call", "chi", "pon",
    "new_dora", "win", "draw_result", "win_context", "result_replay", "hand_replay",
    "draw_context", "ankan", "kakan", "daiminkan", "kita"};

// One win made as _Results._win makes it, when that is the plain case: an XML log,
// outside Toutenkou, a tsumo in the winner's turn or a ron on a discard, and the
// ``checks`` (the core's win_checks) find nothing.  Returns the ResultReplay, or an empty
// object when the plain case does not hold (nothing changed: ``_win`` then decides), and
// sets ``unclean`` when it is the checks that found something (``_win`` is then told, so
// that it does not ask them again).
py::object plain_win(PyObject* table, PyObject* r, PyObject* checks, PyObject* make,
                     PyObject* const* consts, bool& unclean) {
    const Names& nm = names();
    py::object seat_o = own(PyObject_GetAttr(r, nm.seat));
    py::object from_o = own(PyObject_GetAttr(r, nm.from_seat));
    long s = 0, from = 0;
    if (!as_long(seat_o.ptr(), s) || !as_long(from_o.ptr(), from)) return {};
    PyObject* hand = list_at(get(table, T_CONCEALED), s);
    if (hand == nullptr || !PyList_CheckExact(hand)) return {};
    const bool tsumo = s == from;
    PyObject* log = get(table, T_HAND);
    PyObject* uninterrupted = get(table, T_UNINTERRUPTED);
    PyObject* discarded = list_at(get(table, T_DISCARDED), s);
    PyObject* ippatsu = list_at(get(table, T_IPPATSU), s);
    PyObject* riichi = list_at(get(table, T_RIICHI), s);
    PyObject* riichi_double = list_at(get(table, T_RIICHI_DOUBLE), s);
    PyObject* melds_list = list_at(get(table, T_MELDS), s);
    PyObject* pao_list = list_at(get(table, T_PAO), s);
    if (discarded == nullptr || ippatsu == nullptr || riichi == nullptr || riichi_double == nullptr ||
        melds_list == nullptr || !PyList_CheckExact(melds_list) || pao_list == nullptr ||
        !PyList_CheckExact(pao_list))
        return {};
    py::object dealer = own(PyObject_GetAttr(log, nm.dealer));
    long live = 0;
    if (!as_long(get(table, T_LIVE), live)) return {};
    PyObject* win_tile = nullptr;
    py::object tiles;
    PyObject* rinshan = Py_False;
    PyObject* haitei = Py_False;
    PyObject* houtei = Py_False;
    PyObject* tenhou = Py_False;
    PyObject* chiihou = Py_False;
    PyObject* renhou = Py_False;
    if (tsumo) {
        long to_act = 0;
        if (!as_long(get(table, T_TO_ACT), to_act) || s != to_act || truthy(get(table, T_AFTER_CALL)))
            return {};  // win_out_of_turn: _win finds it
        win_tile = list_at(get(table, T_LAST_DRAW), s);
        if (win_tile == nullptr) return {};
        tiles = own(PyList_GetSlice(hand, 0, PyList_GET_SIZE(hand)));
        rinshan = get(table, T_DRAWN_RINSHAN);
        haitei = live == 0 && !truthy(rinshan) ? Py_True : Py_False;
        if (truthy(uninterrupted) && !truthy(discarded)) {
            const int is_dealer = PyObject_RichCompareBool(seat_o.ptr(), dealer.ptr(), Py_EQ);
            if (is_dealer < 0) throw py::error_already_set();
            tenhou = is_dealer ? Py_True : Py_False;
            chiihou = is_dealer ? Py_False : Py_True;
        }
    } else {
        PyObject* lo = get(table, T_LAST_OFFER);
        if (!PyTuple_CheckExact(lo) || PyTuple_GET_SIZE(lo) != 3) return {};
        long offerer = 0, offer = 0;
        if (!as_long(PyTuple_GET_ITEM(lo, 0), offerer) || !as_long(PyTuple_GET_ITEM(lo, 2), offer))
            return {};
        if (offerer != from || offerer == s || offer != 0) return {};  // not a discard's ron
        win_tile = PyTuple_GET_ITEM(lo, 1);
        houtei = live == 0 ? Py_True : Py_False;
        renhou = py_and(uninterrupted, truthy(discarded) ? Py_False : Py_True);
        const Py_ssize_t k = PyList_GET_SIZE(hand);
        tiles = own(PyList_New(k + 1));
        for (Py_ssize_t j = 0; j < k; ++j) {
            PyObject* t = PyList_GET_ITEM(hand, j);
            Py_INCREF(t);
            PyList_SET_ITEM(tiles.ptr(), j, t);
        }
        Py_INCREF(win_tile);
        PyList_SET_ITEM(tiles.ptr(), k, win_tile);
    }
    // Held: ``checks`` may be a test's Python, which could change the table's lists.
    const py::object held[] = {py::reinterpret_borrow<py::object>(win_tile),
                               py::reinterpret_borrow<py::object>(riichi),
                               py::reinterpret_borrow<py::object>(riichi_double),
                               py::reinterpret_borrow<py::object>(ippatsu),
                               py::reinterpret_borrow<py::object>(rinshan),
                               py::reinterpret_borrow<py::object>(renhou),
                               py::reinterpret_borrow<py::object>(pao_list),
                               py::reinterpret_borrow<py::object>(log)};
    (void)held;
    py::object melds = own(PyList_AsTuple(melds_list));
    py::object dora = shown_dora(table);
    PyObject* dead_ura = get(table, T_DEAD_URA);
    py::object ura = own(PyTuple_New(0));
    if (truthy(riichi)) {
        if (dead_ura != Py_None) {
            py::object part = own(PySequence_GetSlice(dead_ura, 0, PyTuple_GET_SIZE(dora.ptr())));
            ura = own(PySequence_Tuple(part.ptr()));
        } else {
            ura = own(PyObject_GetAttr(r, nm.ura));
        }
    }
    PyObject* argv[11] = {table,     seat_o.ptr(), tiles.ptr(), win_tile,  tsumo ? Py_False : Py_True,
                          r,         melds.ptr(),  dora.ptr(),  ura.ptr(), riichi,
                          dead_ura == Py_None ? Py_True : Py_False};
    py::object said = own(PyObject_Vectorcall(checks, argv, 11, nullptr));
    if (!truthy(said.ptr())) {
        unclean = true;
        return {};
    }
    py::object round_wind = round_wind_of(log);
    py::object honba = own(PyObject_GetAttr(log, nm.honba));
    py::object tiles_t = own(PyList_AsTuple(tiles.ptr()));
    PyObject* ctx_argv[23] = {consts[C_WIN_CONTEXT],
                              tiles_t.ptr(),
                              melds.ptr(),
                              win_tile,
                              tsumo ? Py_True : Py_False,
                              seat_o.ptr(),
                              dealer.ptr(),
                              round_wind.ptr(),
                              get(table, T_N),
                              riichi,
                              py_and(riichi, riichi_double),
                              py_and(riichi, ippatsu),
                              haitei,
                              houtei,
                              rinshan,
                              Py_False,
                              tenhou,
                              chiihou,
                              renhou,
                              dora.ptr(),
                              ura.ptr(),
                              honba.ptr(),
                              Py_True};
    py::object ctx = own(PyObject_Vectorcall(make, ctx_argv, 23, nullptr));
    py::object pao = own(PyList_AsTuple(pao_list));
    PyObject* res_argv[6] = {consts[C_RESULT_REPLAY], r, ctx.ptr(), Py_None, Py_None, pao.ptr()};
    return own(PyObject_Vectorcall(make, res_argv, 6, nullptr));
}

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

// The tile ids (exact ints 0-135) of a list or tuple into ``out`` (at most ``cap``):
// their count, or -1 when one is not a tile id or there are more.
Py_ssize_t tile_ids(PyObject* seq, long* out, Py_ssize_t cap) {
    const bool list = PyList_CheckExact(seq);
    if (!list && !PyTuple_CheckExact(seq)) return -1;
    const Py_ssize_t n = list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
    if (n > cap) return -1;
    for (Py_ssize_t j = 0; j < n; ++j) {
        bool ok = true;
        const long t = item_long(list ? PyList_GET_ITEM(seq, j) : PyTuple_GET_ITEM(seq, j), ok);
        if (!ok || t < 0 || t >= 4 * kNumKinds) return -1;
        out[j] = t;
    }
    return n;
}

constexpr Py_ssize_t kMaxHand = 4 * kNumKinds;  // no hand holds more tiles than there are

// The fields of a RecordedDraw read here.
constexpr const char* kDrawNames[2] = {"kind", "shown"};
NamedSlots<2> draw_slots;

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
    long live = 0, n = 0;
    PyObject* n_obj = get(table, T_N);
    if (!as_long(get(table, T_LIVE), live) || live != 0 || !as_long(n_obj, n)) return {};
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
// tile held onto the seat's pon of its kind, outside riichi.  False (nothing changed)
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

// _Results._draw_result for an abortive draw other than a triple ron: it finds nothing,
// and its ResultReplay carries whether the draw's condition held.  An empty object
// where abort_ok leaves it to the Python.
py::object plain_abort(PyObject* table, PyObject* r, PyObject* make, PyObject* const* consts) {
    if (!draw_slots.of(Py_TYPE(r), kDrawNames)) return {};
    PyObject* kind = slot_value(r, draw_slots.at[0]);
    if (kind == nullptr || !PyUnicode_CheckExact(kind)) return {};
    PyObject* ok = abort_ok(table, kind, consts);
    if (ok == nullptr) return {};
    py::object none_paid = own(PyTuple_New(0));
    PyObject* argv[6] = {consts[C_RESULT_REPLAY], r, Py_None, Py_None, ok, none_paid.ptr()};
    return own(PyObject_Vectorcall(make, argv, 6, nullptr));
}

// The end of run: the wall's dora checked, where ura came from, the HandReplay.
py::object hand_replay(PyObject* table, PyObject* make, PyObject* const* consts) {
    const Names& nm = names();
    PyObject* wall_dora = get(table, T_WALL_DORA);
    PyObject* indicators = get(table, T_INDICATORS);
    if (wall_dora != Py_None) {
        py::object got = own(PySequence_Tuple(indicators));
        py::object want = own(PySequence_GetSlice(wall_dora, 0, PyTuple_GET_SIZE(got.ptr())));
        const int differ = PyObject_RichCompareBool(got.ptr(), want.ptr(), Py_NE);
        if (differ < 0) throw py::error_already_set();
        if (differ) call_method(nm.check_wall_dora, {table});
    }
    PyObject* results = get(table, T_RESULTS);
    PyObject* ura_source = Py_None;
    py::object results_t = own(PySequence_Tuple(results));
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(results_t.ptr()); ++j) {
        py::object win = own(PyObject_GetAttr(PyTuple_GET_ITEM(results_t.ptr(), j), nm.win_attr));
        if (win.ptr() == Py_None) continue;
        py::object riichi = own(PyObject_GetAttr(win.ptr(), nm.riichi));
        if (truthy(riichi.ptr())) {
            ura_source = get(table, T_DEAD_URA) != Py_None ? nm.wall : nm.log;
            break;
        }
    }
    py::object findings = own(PySequence_Tuple(get(table, T_FINDINGS)));
    py::object accepted = own(PySequence_Tuple(get(table, T_RIICHI_ACCEPTED)));
    py::object dora = shown_dora(table);
    py::object scores = own(PySequence_Tuple(get(table, T_SCORES)));
    PyObject* argv[9] = {consts[C_HAND_REPLAY], get(table, T_HAND), results_t.ptr(),
                         findings.ptr(),        accepted.ptr(),     dora.ptr(),
                         ura_source,            get(table, T_STICKS), scores.ptr()};
    return own(PyObject_Vectorcall(make, argv, 9, nullptr));
}

// The hand's events played on ``table`` in order and its HandReplay (run_hand's body):
// ``classes`` is checked by the caller, ``table``'s class by table_slots.
py::object play_hand(PyObject* table, PyObject* events, PyObject* play, PyObject* checks,
                     PyObject* make, PyObject* const* consts, PyObject* cost, PyObject* chi_allowed) {
    EventSeq evs(events);
    if (!evs.ok()) throw py::type_error("run_hand: events must be a tuple or HandEvents");
    const Names& nm = names();
    PyObject* results = get(table, T_RESULTS);
    if (!PyList_CheckExact(results)) throw py::type_error("run_hand: results must be a list");
    evs.read_as(events, reinterpret_cast<PyTypeObject*>(consts[C_DRAW]),
                reinterpret_cast<PyTypeObject*>(consts[C_DISCARD]));
    const Py_ssize_t n = evs.size();
    PyObject* play_argv[13] = {table,         events,          nullptr,           consts[C_DRAW],
                               consts[C_DISCARD], consts[C_TH_MASK], consts[C_DECLARE], consts[C_ACCEPT],
                               cost,          consts[C_CALL],  consts[C_CHI],     consts[C_PON],
                               chi_allowed};
    Py_ssize_t i = 0;
    while (i < n) {
        PyObject* ev = evs.object(i);  // null: a lazy draw or discard (hand_events.hpp)
        PyObject* t = reinterpret_cast<PyObject*>(evs.type(i));
        if (t == consts[C_DRAW] || t == consts[C_DISCARD]) {
            py::object at = own(PyLong_FromSsize_t(i));
            play_argv[2] = at.ptr();
            py::object j = own(PyObject_Vectorcall(play, play_argv, 13, nullptr));
            Py_ssize_t reached = PyLong_AsSsize_t(j.ptr());
            if (reached == -1 && PyErr_Occurred()) throw py::error_already_set();
            if (reached < 0) {
                py::object next = own(PyLong_FromSsize_t(i + 1));
                py::object k = call_method(nm.moves, {table, events, at.ptr(), next.ptr()});
                reached = PyLong_AsSsize_t(k.ptr());
                if (reached == -1 && PyErr_Occurred()) throw py::error_already_set();
            }
            i = reached;
            continue;
        }
        ++i;
        if (t == consts[C_CALL]) {
            if (!plain_kan(table, ev, consts) && !plain_open_call(table, ev, consts, chi_allowed))
                call_method(nm.call, {table, ev});
        } else if (t == consts[C_DECLARE]) {
            call_method(nm.declare, {table, ev});
        } else if (t == consts[C_ACCEPT]) {
            call_method(nm.accept, {table, ev});
        } else if (t == consts[C_NEW_DORA]) {
            if (!plain_new_dora(table, ev)) call_method(nm.new_dora, {table, ev});
        } else if (t == consts[C_WIN]) {
            bool unclean = false;
            py::object done;
            if (checks != Py_None) done = plain_win(table, ev, checks, make, consts, unclean);
            if (!done) done = call_method(nm.win, {table, ev, unclean ? Py_True : Py_False});
            if (PyList_Append(results, done.ptr()) < 0) throw py::error_already_set();
        } else if (t == consts[C_DRAW_RESULT]) {
            py::object done = plain_draw(table, ev, make, consts);
            if (!done) done = plain_abort(table, ev, make, consts);
            if (!done) done = call_method(nm.draw_result, {table, ev});
            if (PyList_Append(results, done.ptr()) < 0) throw py::error_already_set();
        }
    }
    return hand_replay(table, make, consts);
}

// What run_hand takes besides the table and the events (table.py's RunArgs), by name.
enum RunArg { R_PLAY, R_CHECKS, R_MAKE, R_CLASSES, R_RIICHI_COST, R_CHI_ALLOWED, R_COUNT };
constexpr const char* kRunArgNames[R_COUNT] = {"play",    "checks",      "make",
                                               "classes", "riichi_cost", "chi_allowed"};
NamedSlots<R_COUNT> run_arg_slots;
NamedSlots<C_COUNT> class_slots;

// ``run`` (a RunArgs) read by name into ``args``, its ``classes`` (a RunClasses) into
// ``classes``; a TypeError for a missing or unset field of either.
void read_run(PyObject* run, PyObject** args, PyObject** classes) {
    named_values(run, run_arg_slots, kRunArgNames, "run_hand: run", args);
    named_values(args[R_CLASSES], class_slots, kClassNames, "run_hand: classes", classes);
}

}  // namespace

PyObject* run_hand(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 3) throw py::type_error("run_hand takes 3 arguments");
        PyObject* table = args[0];
        PyObject* run[R_COUNT];
        PyObject* consts[C_COUNT];
        read_run(args[2], run, consts);
        if (!table_slots.of(Py_TYPE(table), kTableNames))
            throw py::type_error("run_hand: the table is not a replay table");
        return play_hand(table, args[1], run[R_PLAY], run[R_CHECKS], run[R_MAKE], consts,
                         run[R_RIICHI_COST], run[R_CHI_ALLOWED])
            .release()
            .ptr();
    });
}

PyObject* run_game(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 7) throw py::type_error("run_game takes 7 arguments");
        PyObject* cls = args[0];
        PyObject* hands = args[1];
        PyObject* walls_of = args[2];
        PyObject* walls = args[3];
        PyObject* set_table = args[4];
        PyObject* game_consts = args[5];
        PyObject* run[R_COUNT];
        PyObject* consts[C_COUNT];
        read_run(args[6], run, consts);
        if (!PyType_Check(cls)) throw py::type_error("run_game: cls must be a class");
        if (!PyTuple_CheckExact(hands) || !PyList_CheckExact(walls_of) ||
            PyList_GET_SIZE(walls_of) != PyTuple_GET_SIZE(hands))
            throw py::type_error("run_game: hands must be a tuple and their walls a list as long");
        const auto [game, rules] = consts_game_rules(game_consts);
        PyObject* events_name = names().events;
        const Py_ssize_t n = PyTuple_GET_SIZE(hands);
        py::object out = own(PyTuple_New(n));
        py::object found = own(PyList_New(0));
        for (Py_ssize_t k = 0; k < n; ++k) {
            PyObject* hand = PyTuple_GET_ITEM(hands, k);
            // Held: the Python called below could change the list.
            const py::object wall = py::reinterpret_borrow<py::object>(PyList_GET_ITEM(walls_of, k));
            py::object table;
            // A hand whose wall is missing may owe a finding: replay.table._set_table decides.
            if (wall.ptr() != Py_None || walls == Py_None)
                table = build_table(reinterpret_cast<PyTypeObject*>(cls), hand, wall.ptr(), game_consts);
            if (!table) {
                PyObject* argv[5] = {game, hand, rules, walls, wall.ptr()};
                table = own(PyObject_Vectorcall(set_table, argv, 5, nullptr));
            }
            if (!table_slots.of(Py_TYPE(table.ptr()), kTableNames))
                throw py::type_error("run_game: the table is not a replay table");
            py::object events = own(PyObject_GetAttr(hand, events_name));
            py::object done = play_hand(table.ptr(), events.ptr(), run[R_PLAY], run[R_CHECKS],
                                        run[R_MAKE], consts, run[R_RIICHI_COST], run[R_CHI_ALLOWED]);
            py::object findings = own(PyObject_GetAttr(done.ptr(), names().findings));
            py::object items = own(PySequence_Fast(findings.ptr(), "run_game: findings must be a sequence"));
            for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(items.ptr()); ++j)
                if (PyList_Append(found.ptr(), PySequence_Fast_GET_ITEM(items.ptr(), j)) < 0)
                    throw py::error_already_set();
            PyTuple_SET_ITEM(out.ptr(), k, done.release().ptr());
        }
        py::object found_t = own(PyList_AsTuple(found.ptr()));
        return PyTuple_Pack(2, out.ptr(), found_t.ptr());
    });
}

}  // namespace replay_audit::core
