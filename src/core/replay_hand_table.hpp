// What the hand loop (replay_hand.cpp) and the rooms it makes itself (replay_rooms.cpp)
// share: the table's slots they read and write (found once per table class), the
// classes run_hand is given, read by name, and the Python names they ask for; and the
// rooms' entry points.  Internal to those two files (two files: one passed the 600
// lines a core source may have).
#pragma once

#include <pybind11/pybind11.h>

#include <initializer_list>
#include <string>

#include "py_errors.hpp"
#include "slots.hpp"

namespace replay_audit::core::hand {

namespace py = pybind11;

inline PyObject* interned(const char* s) {
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

inline constexpr const char* kTableNames[T_COUNT] = {
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
inline NamedSlots<T_COUNT, true> table_slots;

// A slot's value, borrowed; a TypeError while it is unset.
inline PyObject* get(PyObject* table, TableSlot which) {
    PyObject* v = slot_value(table, table_slots.at[which]);
    if (v == nullptr) throw py::type_error(std::string("run_hand: the table has no ") + kTableNames[which]);
    return v;
}

// ``a and b`` as Python gives it (a if a is false, else b); borrowed.
inline PyObject* py_and(PyObject* a, PyObject* b) {
    const int t = PyObject_IsTrue(a);
    if (t < 0) throw py::error_already_set();
    return t ? b : a;
}

inline bool truthy(PyObject* v) {
    const int t = PyObject_IsTrue(v);
    if (t < 0) throw py::error_already_set();
    return t != 0;
}

// An int object's value as a long, or false when it is no exact int.
inline bool as_long(PyObject* v, long& out) {
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
inline PyObject* list_at(PyObject* list, long s) {
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

inline const Names& names() {
    static const Names n;
    return n;
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
inline constexpr const char* kClassNames[C_COUNT] = {
    "draw", "discard", "th_mask", "riichi_declare", "riichi_accept", "call", "chi", "pon",
    "new_dora", "win", "draw_result", "win_context", "result_replay", "hand_replay",
    "draw_context", "ankan", "kakan", "daiminkan", "kita"};

// ------------------------------------------------------ the rooms (replay_rooms.cpp)
//
// Each makes its room's move where the Python room (its reference) would find
// nothing, and answers "not mine" (an empty object or false, the table unchanged)
// for anything else, which the loop then sends to the Python room.

// _Results._draw_result for an exhaustive draw (or nagashi mangan).
py::object plain_draw(PyObject* table, PyObject* r, PyObject* make, PyObject* const* consts);

// _Results._draw_result for an abortive draw but a triple ron.
py::object plain_abort(PyObject* table, PyObject* r, PyObject* make, PyObject* const* consts);

// moves._new_dora.
bool plain_new_dora(PyObject* table, PyObject* ev);

// calls._ankan and calls._kakan.
bool plain_kan(PyObject* table, PyObject* ev, PyObject* const* consts);

// calls._open_call (chi, pon, daiminkan) with calls._liability.
bool plain_open_call(PyObject* table, PyObject* ev, PyObject* const* consts, PyObject* chi_allowed);

}  // namespace replay_audit::core::hand
