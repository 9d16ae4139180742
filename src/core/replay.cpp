// The replay's hot loop (replay.hpp): the common case of replay_audit.replay.moves._moves,
// which stays the reference (tests/test_core_replay.py holds them equal on the corpus).
// Raw CPython calls on the replay's lists: the state stays Python's, nothing is copied.
#include "replay.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// An int attribute of an event, or false (with no error set) if it is not one.
bool int_attr(PyObject* ev, PyObject* name, long& out) {
    PyObject* v = PyObject_GetAttr(ev, name);
    if (v == nullptr) {
        PyErr_Clear();
        return false;
    }
    bool ok = PyLong_CheckExact(v);
    if (ok) {
        out = PyLong_AsLong(v);
        if (out == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            ok = false;
        }
    }
    Py_DECREF(v);
    return ok;
}

long item_long(PyObject* seq_item, bool& ok) {
    if (!PyLong_CheckExact(seq_item)) {
        ok = false;
        return -1;
    }
    long v = PyLong_AsLong(seq_item);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        ok = false;
    }
    return v;
}

void set_item(PyObject* list, Py_ssize_t idx, PyObject* value) {  // steals value
    if (value == nullptr || PyList_SetItem(list, idx, value) < 0) throw py::error_already_set();
}

void append(PyObject* list, PyObject* value) {  // borrows value
    if (PyList_Append(list, value) < 0) throw py::error_already_set();
}

}  // namespace

py::tuple play_moves(py::tuple events, Py_ssize_t i, py::handle draw_cls, py::handle discard_cls,
                     py::tuple lists, py::tuple scalars, py::handle wall_live,
                     unsigned long long th_mask) {
    static PyObject* s_seat = PyUnicode_InternFromString("seat");
    static PyObject* s_tile = PyUnicode_InternFromString("tile");
    if (PyTuple_GET_SIZE(lists.ptr()) != 12 || PyTuple_GET_SIZE(scalars.ptr()) != 11)
        throw py::value_error("play_moves: 12 lists and 11 scalars");
    PyObject* seen = PyTuple_GET_ITEM(lists.ptr(), 0);
    PyObject* concealed = PyTuple_GET_ITEM(lists.ptr(), 1);
    PyObject* last_draw = PyTuple_GET_ITEM(lists.ptr(), 2);
    PyObject* riichi = PyTuple_GET_ITEM(lists.ptr(), 3);
    PyObject* ippatsu = PyTuple_GET_ITEM(lists.ptr(), 4);
    PyObject* discards = PyTuple_GET_ITEM(lists.ptr(), 5);
    PyObject* disc_mask = PyTuple_GET_ITEM(lists.ptr(), 6);
    PyObject* nagashi = PyTuple_GET_ITEM(lists.ptr(), 7);
    PyObject* last_disc_pos = PyTuple_GET_ITEM(lists.ptr(), 8);
    PyObject* offer_seats = PyTuple_GET_ITEM(lists.ptr(), 9);
    PyObject* offer_kinds = PyTuple_GET_ITEM(lists.ptr(), 10);
    PyObject* discarded = PyTuple_GET_ITEM(lists.ptr(), 11);
    const PyObject* lists_needed[] = {concealed, last_draw, riichi,       ippatsu,
                                      discards,  disc_mask, nagashi,      last_disc_pos,
                                      offer_seats, offer_kinds, discarded};
    for (const PyObject* l : lists_needed)
        if (!PyList_CheckExact(const_cast<PyObject*>(l)))
            throw py::type_error("play_moves: the state must be lists");
    if (!PySet_CheckExact(seen)) throw py::type_error("play_moves: seen must be a set");
    auto sc = [&](int k) { return py::cast<long>(py::handle(PyTuple_GET_ITEM(scalars.ptr(), k))); };
    const long n = sc(0);
    long to_draw = sc(1);
    long to_act = sc(2);
    bool after_call = sc(3) != 0;
    long live = sc(4);
    long rinshan_due = sc(5);
    long live_drawn = sc(6);
    const bool check_wall = sc(7) != 0;
    const long riichi_declared = sc(8);
    const bool dora_ok = sc(9) != 0;
    bool drawn_rinshan = sc(10) != 0;
    PyObject* wall = wall_live.ptr();
    if (check_wall && !PyTuple_CheckExact(wall))
        throw py::type_error("play_moves: the wall's live tiles must be a tuple");
    const Py_ssize_t seats = PyList_GET_SIZE(concealed);
    if (n <= 0 || PyList_GET_SIZE(last_draw) < seats || PyList_GET_SIZE(riichi) < seats ||
        PyList_GET_SIZE(ippatsu) < seats || PyList_GET_SIZE(discards) < seats ||
        PyList_GET_SIZE(disc_mask) < seats || PyList_GET_SIZE(nagashi) < seats ||
        PyList_GET_SIZE(last_disc_pos) < seats || PyList_GET_SIZE(discarded) < seats)
        throw py::value_error("play_moves: every per-seat list needs a slot per seat");

    PyTypeObject* draw_t = reinterpret_cast<PyTypeObject*>(draw_cls.ptr());
    PyTypeObject* discard_t = reinterpret_cast<PyTypeObject*>(discard_cls.ptr());
    const Py_ssize_t n_ev = PyTuple_GET_SIZE(events.ptr());
    int last = 0;
    long last_seat = -1, last_tile = -1;
    for (; i < n_ev; ++i) {
        PyObject* ev = PyTuple_GET_ITEM(events.ptr(), i);
        PyTypeObject* tp = Py_TYPE(ev);
        if (tp != draw_t && tp != discard_t) break;
        long s = -1, tile = -1;
        if (!int_attr(ev, s_seat, s) || !int_attr(ev, s_tile, tile)) break;
        if (s < 0 || s >= seats || tile < 0 || tile >= 136) break;
        py::object tile_obj = py::reinterpret_steal<py::object>(PyObject_GetAttr(ev, s_tile));
        if (!tile_obj) throw py::error_already_set();
        PyObject* hand = PyList_GET_ITEM(concealed, s);
        if (!PyList_CheckExact(hand)) break;
        if (tp == draw_t) {
            // moves._moves, a draw: in turn, not rinshan, a live tile left, not seen, as
            // the rebuilt wall has it.  Anything else is Python's to find.
            if (s != to_draw || rinshan_due == s || live <= 0) break;
            int c = PySet_Contains(seen, tile_obj.ptr());
            if (c != 0) {
                if (c < 0) throw py::error_already_set();
                break;
            }
            if (check_wall) {
                if (live_drawn >= PyTuple_GET_SIZE(wall)) break;
                bool ok = true;
                long expect = item_long(PyTuple_GET_ITEM(wall, live_drawn), ok);
                if (!ok || expect != tile) break;
            }
            rinshan_due = -1;
            live -= 1;
            if (PySet_Add(seen, tile_obj.ptr()) < 0) throw py::error_already_set();
            live_drawn += 1;
            append(hand, tile_obj.ptr());
            Py_INCREF(tile_obj.ptr());
            set_item(last_draw, s, tile_obj.ptr());
            drawn_rinshan = false;
            to_draw = -1;
            to_act = s;
            after_call = false;
            last = 1;
        } else {
            // moves._moves, a discard: in turn, the tile held as is, no riichi being
            // declared, no kan dora due; after riichi only the drawn tile.
            if (s != to_act || riichi_declared == s || !dora_ok) break;
            const bool in_riichi = PyList_GET_ITEM(riichi, s) == Py_True;
            if (PyList_GET_ITEM(riichi, s) != Py_True && PyList_GET_ITEM(riichi, s) != Py_False)
                break;
            if (in_riichi) {
                bool ok = true;
                long drawn = item_long(PyList_GET_ITEM(last_draw, s), ok);
                if (!ok || after_call || tile != drawn) break;
            }
            Py_ssize_t at = -1;
            const Py_ssize_t size = PyList_GET_SIZE(hand);
            bool ok = true;
            for (Py_ssize_t j = 0; j < size && ok; ++j) {
                if (item_long(PyList_GET_ITEM(hand, j), ok) == tile && ok) {
                    at = j;
                    break;
                }
            }
            if (!ok || at < 0) break;
            PyObject* mask_obj = PyList_GET_ITEM(disc_mask, s);
            if (!PyLong_CheckExact(mask_obj)) break;
            unsigned long long mask = PyLong_AsUnsignedLongLong(mask_obj);
            if (PyErr_Occurred()) {
                PyErr_Clear();
                break;
            }
            if (PyList_SetSlice(hand, at, at + 1, nullptr) < 0) throw py::error_already_set();
            const long k = tile >> 2;
            if (in_riichi) {
                Py_INCREF(Py_False);
                set_item(ippatsu, s, Py_False);
            }
            append(PyList_GET_ITEM(discards, s), tile_obj.ptr());
            set_item(disc_mask, s, PyLong_FromUnsignedLongLong(mask | (1ULL << k)));
            if (!((th_mask >> k) & 1ULL)) {
                Py_INCREF(Py_False);
                set_item(nagashi, s, Py_False);
            }
            set_item(last_disc_pos, s, PyLong_FromSsize_t(PyList_GET_SIZE(offer_kinds)));
            py::object seat_obj = py::reinterpret_steal<py::object>(PyLong_FromLong(s));
            append(offer_seats, seat_obj.ptr());
            py::object kind_obj = py::reinterpret_steal<py::object>(PyLong_FromLong(k));
            append(offer_kinds, kind_obj.ptr());
            Py_INCREF(Py_True);
            set_item(discarded, s, Py_True);
            to_act = -1;
            after_call = false;
            to_draw = (s + 1) % n;
            last = 2;
            last_seat = s;
            last_tile = tile;
        }
        if (last == 1) last_seat = -1;
    }
    return py::make_tuple(i, to_draw, to_act, after_call, live, rinshan_due, live_drawn,
                          drawn_rinshan, last, last_seat, last_tile);
}

}  // namespace replay_audit::core
