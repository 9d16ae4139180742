// A hand's replay table at its deal (table_state.hpp): the ~50 slots of
// replay_audit.replay.state._TableState set here in one call a hand, instead of its
// ``__init__`` (the largest Python item of the replay when measured: a few dozen slot
// stores and new lists a hand).  The Python ``__init__`` stays the reference, and the
// builder for JSON logs and for a deal it declines.
#include "table_state.hpp"

#include "py_errors.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// Every slot __init__ sets (``dealer`` is a slot it leaves unset, so it is not here).
enum Slot {
    S_GAME, S_HAND, S_RULES, S_N, S_JSON, S_AKA, S_KAN_DORA_NOW, S_CONCEALED, S_MELDS,
    S_DISCARDS, S_PAO, S_DISC_MASK, S_NAGASHI, S_DISCARDED, S_LIVE, S_RINSHAN_FROM_LIVE,
    S_TO_DRAW, S_TO_ACT, S_AFTER_CALL, S_LAST_DRAW, S_DRAWN_RINSHAN, S_RINSHAN_DUE,
    S_LAST_OFFER, S_OFFER_SEATS, S_OFFER_KINDS, S_LAST_DISC_POS, S_RIICHI_POS,
    S_RIICHI_DECLARED, S_RIICHI, S_RIICHI_DOUBLE, S_IPPATSU, S_IPPATSU_BEFORE_KAKAN,
    S_RIICHI_ACCEPTED, S_SCORES, S_STICKS, S_UNINTERRUPTED, S_KANS, S_KAN_SEATS, S_DORA_DUE,
    S_DORA_PENDING, S_INDICATORS, S_WALL, S_WALL_DORA, S_DEAD_URA, S_LIVE_DRAWN,
    S_RINSHAN_DRAWN, S_WALL_OK, S_FINDINGS, S_RESULTS, S_SEEN_OTHER, S_SEEN, S_CORE_LISTS,
    S_COUNT
};

constexpr const char* kSlotNames[S_COUNT] = {
    "game", "hand", "rules", "n", "json", "aka", "kan_dora_now", "concealed", "melds",
    "discards", "pao", "disc_mask", "nagashi", "discarded", "live", "rinshan_from_live",
    "to_draw", "to_act", "after_call", "last_draw", "drawn_rinshan", "rinshan_due",
    "last_offer", "offer_seats", "offer_kinds", "last_disc_pos", "riichi_pos",
    "riichi_declared", "riichi", "riichi_double", "ippatsu", "ippatsu_before_kakan",
    "riichi_accepted", "scores", "sticks", "uninterrupted", "kans", "kan_seats", "dora_due",
    "dora_pending", "indicators", "wall", "wall_dora", "dead_ura", "live_drawn",
    "rinshan_drawn", "wall_ok", "findings", "results", "seen_other", "seen", "core_lists"};

NamedSlots<S_COUNT> slots_of_table;

// The fields of the game's constants (state.py's TableConstants) the core reads, by name.
enum Const { K_GAME, K_RULES, K_N, K_AKA, K_KAN_DORA_NOW, K_LIVE, K_RINSHAN_FROM_LIVE, K_DEALT_SEEN, K_COUNT };
constexpr const char* kConstNames[K_COUNT] = {
    "game", "rules", "n", "aka", "kan_dora_now", "live", "rinshan_from_live", "dealt_seen"};
NamedSlots<K_COUNT> slots_of_consts;

// The hand's fields the table takes (HandLog's slots), read at their offsets: a load
// each instead of a getattr (a fifth of this file's time when measured).
enum HandField { H_HAIPAI, H_DEALER, H_SCORES, H_STICKS, H_DORA_INDICATOR, H_COUNT };
constexpr const char* kHandNames[H_COUNT] = {"haipai", "dealer", "scores", "sticks", "dora_indicator"};
NamedSlots<H_COUNT> slots_of_hand;

enum WallField { W_DORA, W_URA, W_COUNT };
constexpr const char* kWallNames[W_COUNT] = {"dora", "ura"};
NamedSlots<W_COUNT> slots_of_wall;

// ``obj.<names[j]>`` (a new reference): the slot's value where ``obj``'s class keeps it
// in a plain slot, else a getattr (its error too, an unset slot's included).
template <int N>
py::object field(PyObject* obj, NamedSlots<N>& slots, const char* const (&names)[N], int j) {
    if (slots.of(Py_TYPE(obj), names)) {
        PyObject* v = slot_value(obj, slots.at[j]);
        if (v != nullptr) return py::reinterpret_borrow<py::object>(v);
    }
    return own(PyObject_GetAttrString(obj, names[j]));
}

// A list of ``k`` items, each ``item`` (the same object: immutable ones only).
py::object repeated(Py_ssize_t k, PyObject* item) {
    py::object out = own(PyList_New(k));
    for (Py_ssize_t j = 0; j < k; ++j) {
        Py_INCREF(item);
        PyList_SET_ITEM(out.ptr(), j, item);
    }
    return out;
}

// A list of ``k`` new empty lists.
py::object empties(Py_ssize_t k) {
    py::object out = own(PyList_New(k));
    for (Py_ssize_t j = 0; j < k; ++j) PyList_SET_ITEM(out.ptr(), j, own(PyList_New(0)).release().ptr());
    return out;
}

// A list holding ``item`` alone.
py::object one(PyObject* item) {
    py::object out = own(PyList_New(1));
    Py_INCREF(item);
    PyList_SET_ITEM(out.ptr(), 0, item);
    return out;
}

}  // namespace

py::object build_table(PyTypeObject* cls, PyObject* hand, PyObject* wall, PyObject* consts) {
    PyObject* k[K_COUNT];
    named_values(consts, slots_of_consts, kConstNames, "new_table: consts", k);
    if (!slots_of_table.of(cls, kSlotNames)) return {};
    auto of_hand = [&](HandField j) { return field(hand, slots_of_hand, kHandNames, j); };
    py::object haipai = of_hand(H_HAIPAI);
    py::object dora_indicator = of_hand(H_DORA_INDICATOR);
    // The tiles met at the deal, by the same share __init__ asks (None: the loop's case).
    PyObject* seen_argv[2] = {haipai.ptr(), dora_indicator.ptr()};
    py::object seen = own(PyObject_Vectorcall(k[K_DEALT_SEEN], seen_argv, 2, nullptr));
    if (seen.ptr() == Py_None || !PyTuple_CheckExact(haipai.ptr())) return {};
    py::object to_draw = of_hand(H_DEALER);
    py::object hand_scores = of_hand(H_SCORES);
    py::object sticks = of_hand(H_STICKS);
    py::object wall_dora = py::none();
    py::object dead_ura = py::none();
    if (wall != Py_None) {
        wall_dora = field(wall, slots_of_wall, kWallNames, W_DORA);
        dead_ura = field(wall, slots_of_wall, kWallNames, W_URA);
    }
    // Per seat: a list of each dealt seat's tiles, padded to four seats with empty ones.
    const Py_ssize_t dealt = PyTuple_GET_SIZE(haipai.ptr());
    const Py_ssize_t seats = dealt < 4 ? 4 : dealt;
    py::object concealed = own(PyList_New(seats));
    for (Py_ssize_t s = 0; s < seats; ++s) {
        PyObject* tiles = s < dealt ? PySequence_List(PyTuple_GET_ITEM(haipai.ptr(), s)) : PyList_New(0);
        if (tiles == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(concealed.ptr(), s, tiles);
    }
    const py::object minus_one_o = own(PyLong_FromLong(-1));
    const py::object zero_o = own(PyLong_FromLong(0));
    const py::object one_o = own(PyLong_FromLong(1));
    PyObject* const minus_one = minus_one_o.ptr();
    PyObject* const zero = zero_o.ptr();
    PyObject* const one_int = one_o.ptr();
    py::object scores = own(PySequence_List(hand_scores.ptr()));
    py::object v[S_COUNT];
    auto borrowed = [](PyObject* o) { return py::reinterpret_borrow<py::object>(o); };
    v[S_GAME] = borrowed(k[K_GAME]);
    v[S_HAND] = borrowed(hand);
    v[S_RULES] = borrowed(k[K_RULES]);
    v[S_N] = borrowed(k[K_N]);
    v[S_JSON] = borrowed(Py_False);
    v[S_AKA] = borrowed(k[K_AKA]);
    v[S_KAN_DORA_NOW] = borrowed(k[K_KAN_DORA_NOW]);
    v[S_CONCEALED] = concealed;
    v[S_MELDS] = empties(seats);
    v[S_DISCARDS] = empties(seats);
    v[S_PAO] = empties(seats);
    v[S_DISC_MASK] = repeated(seats, zero);
    v[S_NAGASHI] = repeated(seats, Py_True);
    v[S_DISCARDED] = repeated(seats, Py_False);
    v[S_LIVE] = borrowed(k[K_LIVE]);
    v[S_RINSHAN_FROM_LIVE] = borrowed(k[K_RINSHAN_FROM_LIVE]);
    v[S_TO_DRAW] = to_draw;
    v[S_TO_ACT] = borrowed(minus_one);
    v[S_AFTER_CALL] = borrowed(Py_False);
    v[S_LAST_DRAW] = repeated(seats, minus_one);
    v[S_DRAWN_RINSHAN] = borrowed(Py_False);
    v[S_RINSHAN_DUE] = borrowed(minus_one);
    v[S_LAST_OFFER] = py::none();
    v[S_OFFER_SEATS] = own(PyList_New(0));
    v[S_OFFER_KINDS] = own(PyList_New(0));
    v[S_LAST_DISC_POS] = repeated(seats, minus_one);
    v[S_RIICHI_POS] = repeated(seats, minus_one);
    v[S_RIICHI_DECLARED] = borrowed(minus_one);
    v[S_RIICHI] = repeated(seats, Py_False);
    v[S_RIICHI_DOUBLE] = repeated(seats, Py_False);
    v[S_IPPATSU] = repeated(seats, Py_False);
    v[S_IPPATSU_BEFORE_KAKAN] = py::none();
    v[S_RIICHI_ACCEPTED] = own(PyList_New(0));
    v[S_SCORES] = scores;
    v[S_STICKS] = sticks;
    v[S_UNINTERRUPTED] = borrowed(Py_True);
    v[S_KANS] = borrowed(zero);
    v[S_KAN_SEATS] = borrowed(zero);
    v[S_DORA_DUE] = borrowed(one_int);
    v[S_DORA_PENDING] = borrowed(zero);
    v[S_INDICATORS] = one(dora_indicator.ptr());
    v[S_WALL] = borrowed(wall);
    v[S_WALL_DORA] = wall_dora;
    v[S_DEAD_URA] = dead_ura;
    v[S_LIVE_DRAWN] = borrowed(zero);
    v[S_RINSHAN_DRAWN] = borrowed(zero);
    v[S_WALL_OK] = borrowed(Py_True);
    v[S_FINDINGS] = own(PyList_New(0));
    v[S_RESULTS] = own(PyList_New(0));
    v[S_SEEN_OTHER] = py::none();
    v[S_SEEN] = seen;
    // The lists the core's play_moves plays on, in its order (state.py's core_lists).
    constexpr Slot kCoreLists[17] = {
        S_SEEN, S_CONCEALED, S_LAST_DRAW, S_RIICHI, S_IPPATSU, S_DISCARDS, S_DISC_MASK,
        S_NAGASHI, S_LAST_DISC_POS, S_OFFER_SEATS, S_OFFER_KINDS, S_DISCARDED, S_RIICHI_POS,
        S_RIICHI_DOUBLE, S_SCORES, S_RIICHI_ACCEPTED, S_MELDS};
    py::object core_lists = own(PyTuple_New(17));
    for (int j = 0; j < 17; ++j) PyTuple_SET_ITEM(core_lists.ptr(), j, v[kCoreLists[j]].inc_ref().ptr());
    v[S_CORE_LISTS] = core_lists;
    // Every value made: the instance, its slots set (each a new reference it keeps).
    py::object table = own(cls->tp_alloc(cls, 0));
    for (int j = 0; j < S_COUNT; ++j) {
        PyObject** at = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(table.ptr()) + slots_of_table.at[j]);
        PyObject* old = *at;
        *at = v[j].release().ptr();
        Py_XDECREF(old);
    }
    return table;
}

std::pair<PyObject*, PyObject*> consts_game_rules(PyObject* consts) {
    PyObject* k[K_COUNT];
    named_values(consts, slots_of_consts, kConstNames, "run_game: consts", k);
    return {k[K_GAME], k[K_RULES]};
}

PyObject* new_table(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 4) throw py::type_error("new_table(cls, hand, wall, consts)");
        if (!PyType_Check(args[0])) throw py::type_error("new_table: cls must be a class");
        py::object table = build_table(reinterpret_cast<PyTypeObject*>(args[0]), args[1], args[2], args[3]);
        if (!table) Py_RETURN_NONE;
        return table.release().ptr();
    });
}

}  // namespace replay_audit::core
