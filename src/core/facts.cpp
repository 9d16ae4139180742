// The statistics' per-hand event scan (facts.hpp): replay_audit.stats.scan.py_scan_hand's
// answer in one C loop, so that Python only looks at a hand's rare events (calls, riichi,
// results), about one in ten.  Nothing is copied or changed: the events' slots are read
// at their offsets, as replay.cpp reads them.
#include "facts.hpp"

#include <structmember.h>

#include <cstdint>
#include <exception>

#include "waits.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

constexpr int kMaxSeats = 4;
constexpr int kTileIds = 136;

// Where instances of ``cls`` keep the object slot ``name``, or -1.
Py_ssize_t member_offset(PyTypeObject* cls, const char* name) {
    PyObject* d = PyObject_GetAttrString(reinterpret_cast<PyObject*>(cls), name);
    if (d == nullptr) {
        PyErr_Clear();
        return -1;
    }
    Py_ssize_t at = -1;
    if (Py_TYPE(d) == &PyMemberDescr_Type) {
        const PyMemberDef* m = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
        if (m->type == T_OBJECT_EX) at = m->offset;
    }
    Py_DECREF(d);
    return at;
}

// The ``seat`` and ``tile`` slots of one event class, found once per class (the class is
// held, so that no other class can take its address).
struct EventSlots {
    PyTypeObject* type = nullptr;
    Py_ssize_t seat = -1;
    Py_ssize_t tile = -1;
    bool ok = false;

    bool of(PyTypeObject* t, bool with_tile) {
        if (t == type) return ok;
        seat = member_offset(t, "seat");
        tile = with_tile ? member_offset(t, "tile") : 0;
        ok = seat >= 0 && tile >= 0;
        Py_INCREF(t);
        Py_XDECREF(type);
        type = t;
        return ok;
    }
};

// A slot holding a plain int in [0, limit): its value, else -1 (the hand is declined).
long small_int(PyObject* obj, Py_ssize_t at, long limit) {
    PyObject* v = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + at);
    if (v == nullptr || !PyLong_CheckExact(v)) return -1;
    int overflow = 0;
    const long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow != 0 || x < 0 || x >= limit) return -1;
    return x;
}

constexpr long kAnySeat = 1L << 30;  // seats past the table are fine (ignored), negatives not

// One seat's concealed tiles by id, rebuilt as stats.scan.riichi_wait_kinds does (only
// what it needs: the deal, the seat's draws and discards; a call ends the rebuild).
struct SeatTiles {
    bool dealt = false;   // dealt 13 tiles: else the waits are unknown (None)
    bool missing = false;  // discarded a tile it did not hold: unknown (None)
    bool called = false;   // a call: Python rebuilds the tiles (the hand is declined)
    int held = 0;
    std::uint16_t ids[kTileIds] = {};
};

struct Declined {};

// The wait-kind count after the riichi discard: a Python int, None, or Declined.
PyObject* wait_kinds(const SeatTiles& s) {
    if (s.called) throw Declined{};
    if (!s.dealt || s.missing || s.held % 3 != 1) Py_RETURN_NONE;
    std::uint8_t counts[kNumKinds] = {};
    for (int id = 0; id < kTileIds; ++id) {
        const int c = counts[id >> 2] + s.ids[id];
        if (c > 4) throw Declined{};  // wait_mask's own decline: Python answers
        counts[id >> 2] = static_cast<std::uint8_t>(c);
    }
    return PyLong_FromLong(__builtin_popcountll(wait_mask(counts)));
}

PyObject* scan(PyObject* events, long n, PyObject* haipai, PyTypeObject* draw_cls,
               PyTypeObject* discard_cls, PyTypeObject* declare_cls, PyTypeObject* call_cls) {
    static EventSlots draw_slots, discard_slots, declare_slots, call_slots;
    if (!draw_slots.of(draw_cls, true) || !discard_slots.of(discard_cls, true) ||
        !declare_slots.of(declare_cls, false) || !call_slots.of(call_cls, false))
        throw Declined{};
    SeatTiles tiles[kMaxSeats];
    const Py_ssize_t dealt = PyTuple_GET_SIZE(haipai);
    for (long s = 0; s < n && s < dealt; ++s) {
        PyObject* deal = PyTuple_GET_ITEM(haipai, s);
        if (!PyTuple_CheckExact(deal)) throw Declined{};
        if (PyTuple_GET_SIZE(deal) != 13) continue;
        for (Py_ssize_t j = 0; j < 13; ++j) {
            PyObject* v = PyTuple_GET_ITEM(deal, j);
            if (!PyLong_CheckExact(v)) throw Declined{};
            const long id = PyLong_AsLong(v);
            if (id < 0 || id >= kTileIds) throw Declined{};
            ++tiles[s].ids[id];
        }
        tiles[s].dealt = true;
        tiles[s].held = 13;
    }
    long ndisc[kMaxSeats] = {};
    bool declared[kMaxSeats] = {};
    bool pending[kMaxSeats] = {};
    long last = -1;
    py::list out;
    auto add = [&out](PyObject* entry) {
        if (entry == nullptr || PyList_Append(out.ptr(), entry) < 0) {
            Py_XDECREF(entry);
            throw py::error_already_set();
        }
        Py_DECREF(entry);
    };
    const Py_ssize_t count = PyTuple_GET_SIZE(events);
    PyObject* const* items = &PyTuple_GET_ITEM(events, 0);
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* ev = items[i];
        PyTypeObject* t = Py_TYPE(ev);
        if (t == draw_cls) {
            const long seat = small_int(ev, draw_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n && tiles[seat].dealt) {
                const long id = small_int(ev, draw_slots.tile, kTileIds);
                if (id < 0) throw Declined{};
                ++tiles[seat].ids[id];
                ++tiles[seat].held;
            }
            continue;
        }
        if (t == discard_cls) {
            const long seat = small_int(ev, discard_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                ++ndisc[seat];
                SeatTiles& s = tiles[seat];
                if (s.dealt) {
                    const long id = small_int(ev, discard_slots.tile, kTileIds);
                    if (id < 0) throw Declined{};
                    if (s.ids[id] == 0) {
                        s.missing = true;
                    } else {
                        --s.ids[id];
                        --s.held;
                    }
                }
                if (pending[seat]) {  // the riichi discard: the wait is now fixed
                    pending[seat] = false;
                    PyObject* kinds = wait_kinds(s);
                    add(Py_BuildValue("(nNO)", i, kinds, Py_None));
                }
            }
            last = seat;
            continue;
        }
        if (t != declare_cls && PyObject_TypeCheck(ev, declare_cls)) throw Declined{};
        if (t == declare_cls || t == call_cls) {
            const long seat = small_int(ev, t == call_cls ? call_slots.seat : declare_slots.seat,
                                        kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                if (t == call_cls) {
                    tiles[seat].called = true;
                } else if (!declared[seat]) {
                    declared[seat] = pending[seat] = true;
                }
            }
        }
        PyObject* so_far = PyTuple_New(n);
        if (so_far == nullptr) throw py::error_already_set();
        for (long s = 0; s < n; ++s) PyTuple_SET_ITEM(so_far, s, PyLong_FromLong(ndisc[s]));
        PyObject* from = last >= 0 ? PyLong_FromLong(last) : (Py_INCREF(Py_None), Py_None);
        add(Py_BuildValue("(nNN)", i, from, so_far));
    }
    return out.release().ptr();
}

}  // namespace

PyObject* hand_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "hand_scan takes 7 arguments");
        return nullptr;
    }
    PyObject* events = args[0];
    PyObject* haipai = args[2];
    for (int j = 3; j < 7; ++j) {
        if (!PyType_Check(args[j])) {
            PyErr_SetString(PyExc_TypeError, "hand_scan: the event classes must be classes");
            return nullptr;
        }
    }
    if (!PyTuple_CheckExact(events) || !PyTuple_CheckExact(haipai) || !PyLong_CheckExact(args[1]))
        Py_RETURN_NONE;
    const long n = PyLong_AsLong(args[1]);
    if (n < 1 || n > kMaxSeats) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    try {
        return scan(events, n, haipai, reinterpret_cast<PyTypeObject*>(args[3]),
                    reinterpret_cast<PyTypeObject*>(args[4]),
                    reinterpret_cast<PyTypeObject*>(args[5]),
                    reinterpret_cast<PyTypeObject*>(args[6]));
    } catch (const Declined&) {
        Py_RETURN_NONE;
    } catch (py::error_already_set& e) {
        e.restore();
        return nullptr;
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return nullptr;
    }
}

}  // namespace replay_audit::core
