// The replay's core calls beside the run (replay.hpp), one call each per hand, per win
// or per value: at the deal, the tiles met (dealt_seen) and the dora, ura, live and
// rinshan tiles of the wall when the deal is the wall's (hand_wall), as
// replay_audit.replay.state and replay.walls compute them; at a win, every check of
// replay_audit.replay.results._win on an XML log (the hand complete, a ron not furiten,
// the shown hand, melds, winning tile, dora and ura as replayed: win_checks, True only
// when none of them could find anything); and the value objects made without their
// __init__ (make_value: a frozen slots dataclass whose __init__ only stores its fields
// gets them stored at their slot offsets, slots.hpp).  The Python code stays the
// reference and decides every case answered None, NotImplemented or False here.  Apart
// from the run (replay.cpp); one file rather than three because each file that includes
// pybind11 adds some six seconds of compile time, more than these calls' own code.
#include "replay.hpp"

#include "replay_plumbing.hpp"
#include "waits.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace replay_audit::core {

namespace {

// The tiles of ``record`` at the positions ``at`` (a bytes object), as a new tuple.
PyObject* gather(const unsigned char* record, PyObject* at) {
    const Py_ssize_t n = PyBytes_GET_SIZE(at);
    const unsigned char* pos = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(at));
    PyObject* out = PyTuple_New(n);
    if (out == nullptr) return nullptr;
    for (Py_ssize_t j = 0; j < n; ++j) {
        PyObject* tile = PyLong_FromLong(record[pos[j]]);
        if (tile == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, j, tile);
    }
    return out;
}

// Whether every position of ``at`` (bytes) is below ``size``.
bool positions_ok(PyObject* at, Py_ssize_t size) {
    if (!PyBytes_CheckExact(at)) return false;
    const unsigned char* pos = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(at));
    for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(at); ++j)
        if (pos[j] >= size) return false;
    return true;
}

}  // namespace

PyObject* dealt_seen(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 2) throw py::type_error("dealt_seen(haipai, dora_indicator)");
        PyObject* haipai = args[0];
        if (!PyTuple_CheckExact(haipai)) Py_RETURN_NONE;
        char seen[136] = {};
        bool ok = true;
        // One tile: an id 0-135 not met before, else the Python names the repeat.
        auto meet = [&](PyObject* item) {
            const long t = item_long(item, ok);
            if (!ok || t < 0 || t >= 136 || seen[t] != 0) return false;
            seen[t] = 1;
            return true;
        };
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(haipai); ++k) {
            PyObject* dealt = PyTuple_GET_ITEM(haipai, k);
            if (!PyTuple_CheckExact(dealt)) Py_RETURN_NONE;
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(dealt); ++j)
                if (!meet(PyTuple_GET_ITEM(dealt, j))) Py_RETURN_NONE;
        }
        if (!meet(args[1])) Py_RETURN_NONE;
        return PyByteArray_FromStringAndSize(seen, 136);
    });
}

PyObject* hand_wall(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 4) throw py::type_error("hand_wall(record, plan, dora_indicator, haipai)");
        PyObject* record = args[0];
        PyObject* plan = args[1];
        PyObject* haipai = args[3];
        if (!PyBytes_CheckExact(record) || !PyTuple_CheckExact(plan) ||
            PyTuple_GET_SIZE(plan) != 7 || !PyTuple_CheckExact(haipai))
            Py_RETURN_NOTIMPLEMENTED;
        const Py_ssize_t size = PyBytes_GET_SIZE(record);
        const unsigned char* tiles = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(record));
        bool ok = true;
        const long first_dora = item_long(PyTuple_GET_ITEM(plan, 0), ok);
        PyObject* deal = PyTuple_GET_ITEM(plan, 1);
        const long live_lo = item_long(PyTuple_GET_ITEM(plan, 4), ok);
        const long live_hi = item_long(PyTuple_GET_ITEM(plan, 5), ok);
        if (!ok || first_dora < 0 || first_dora >= size || !PyTuple_CheckExact(deal) ||
            live_lo < 0 || live_hi < live_lo || live_hi > size ||
            !positions_ok(PyTuple_GET_ITEM(plan, 2), size) ||
            !positions_ok(PyTuple_GET_ITEM(plan, 3), size) ||
            !positions_ok(PyTuple_GET_ITEM(plan, 6), size))
            Py_RETURN_NOTIMPLEMENTED;
        // INIT's dora indicator where the wall has it, else no match.
        const long dora_indicator = item_long(args[2], ok);
        if (!ok) Py_RETURN_NOTIMPLEMENTED;
        if (tiles[first_dora] != dora_indicator) Py_RETURN_NONE;
        // Each seat's deal as dealt, in order; anything else is Python's to compare.
        const Py_ssize_t seats = PyTuple_GET_SIZE(haipai) < PyTuple_GET_SIZE(deal)
                                     ? PyTuple_GET_SIZE(haipai)
                                     : PyTuple_GET_SIZE(deal);
        for (Py_ssize_t k = 0; k < seats; ++k) {
            PyObject* at = PyTuple_GET_ITEM(deal, k);
            PyObject* dealt = PyTuple_GET_ITEM(haipai, k);
            if (!positions_ok(at, size) || !PyTuple_CheckExact(dealt) ||
                PyTuple_GET_SIZE(dealt) != PyBytes_GET_SIZE(at))
                Py_RETURN_NOTIMPLEMENTED;
            const unsigned char* pos = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(at));
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(dealt); ++j) {
                const long t = item_long(PyTuple_GET_ITEM(dealt, j), ok);
                if (!ok || t != tiles[pos[j]]) Py_RETURN_NOTIMPLEMENTED;
            }
        }
        py::object dora = py::reinterpret_steal<py::object>(gather(tiles, PyTuple_GET_ITEM(plan, 2)));
        py::object ura = py::reinterpret_steal<py::object>(gather(tiles, PyTuple_GET_ITEM(plan, 3)));
        py::object rinshan =
            py::reinterpret_steal<py::object>(gather(tiles, PyTuple_GET_ITEM(plan, 6)));
        if (!dora || !ura || !rinshan) throw py::error_already_set();
        py::object live = py::reinterpret_steal<py::object>(PyTuple_New(live_hi - live_lo));
        if (!live) throw py::error_already_set();
        for (long j = live_lo; j < live_hi; ++j) {
            PyObject* tile = PyLong_FromLong(tiles[j]);
            if (tile == nullptr) throw py::error_already_set();
            PyTuple_SET_ITEM(live.ptr(), j - live_lo, tile);
        }
        // the two dice after the tiles of a record (136 or 108 tiles), else None
        py::object dice = py::none();
        if (size == 138 || size == 110)
            dice = py::make_tuple(static_cast<int>(tiles[size - 2]), static_cast<int>(tiles[size - 1]));
        return PyTuple_Pack(5, dora.ptr(), ura.ptr(), live.ptr(), rinshan.ptr(), dice.ptr());
    });
}

namespace {

// riichi._check_furiten finding nothing for seat ``s`` whose concealed tiles (without
// the winning tile) have the wait mask ``mask``: no wait in its own discards, none
// passed since its last discard or its riichi discard.  False also when the state is
// not as the Python code keeps it.
bool furiten_clean(PyObject* lists, long s, std::uint64_t mask) {
    if (mask == 0) return true;
    PyObject* riichi = PyTuple_GET_ITEM(lists, 3);
    PyObject* disc_mask = PyTuple_GET_ITEM(lists, 6);
    PyObject* last_disc_pos = PyTuple_GET_ITEM(lists, 8);
    PyObject* seats = PyTuple_GET_ITEM(lists, 9);
    PyObject* kinds = PyTuple_GET_ITEM(lists, 10);
    PyObject* riichi_pos = PyTuple_GET_ITEM(lists, 12);
    for (PyObject* l : {riichi, disc_mask, last_disc_pos, seats, kinds, riichi_pos})
        if (!PyList_CheckExact(l)) return false;
    if (s >= PyList_GET_SIZE(riichi) || s >= PyList_GET_SIZE(disc_mask) ||
        s >= PyList_GET_SIZE(last_disc_pos) || s >= PyList_GET_SIZE(riichi_pos))
        return false;
    PyObject* dm = PyList_GET_ITEM(disc_mask, s);
    if (!PyLong_CheckExact(dm)) return false;
    const unsigned long long own = PyLong_AsUnsignedLongLong(dm);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    if (own & mask) return false;
    bool ok = true;
    long start = item_long(PyList_GET_ITEM(last_disc_pos, s), ok) + 1;
    PyObject* in_riichi = PyList_GET_ITEM(riichi, s);
    if (in_riichi != Py_True && in_riichi != Py_False) return false;
    if (in_riichi == Py_True) {
        const long rp = item_long(PyList_GET_ITEM(riichi_pos, s), ok);
        if (ok && rp >= 0 && rp + 1 < start) start = rp + 1;
    }
    const Py_ssize_t end = PyList_GET_SIZE(kinds) - 1;
    if (!ok || start < 0 || PyList_GET_SIZE(seats) < PyList_GET_SIZE(kinds)) return false;
    for (Py_ssize_t i = start; i < end; ++i) {
        const long seat = item_long(PyList_GET_ITEM(seats, i), ok);
        const long kind = item_long(PyList_GET_ITEM(kinds, i), ok);
        if (!ok || kind < 0 || kind >= kNumKinds) return false;
        if (seat != s && ((mask >> kind) & 1ULL)) return false;
    }
    return true;
}

}  // namespace

// 1 when ``a == b`` (Python's ==), 0 when not; throws on an error.
int equal(PyObject* a, PyObject* b) {
    const int eq = PyObject_RichCompareBool(a, b, Py_EQ);
    if (eq < 0) throw py::error_already_set();
    return eq;
}

namespace {

// A class whose ``==`` is its dataclass's generated __eq__ over all its fields, each a
// plain slot: the offsets of those fields in order.  That __eq__ compares the tuples of
// the fields of two instances of the same class, so comparing the fields here, in order,
// is the same answer without the two tuples and the Python frame (17,000 melds a pass
// over the Phoenix corpus were compared so, a Python call each).
struct FieldEq {
    PyTypeObject* type = nullptr;  // held
    bool ok = false;
    std::vector<Py_ssize_t> at;
};

// Whether ``t``'s __eq__ is the one dataclasses wrote for it (its code made from a
// string, its name the class's) with eq on, and every field compared and a slot, in
// the order of __slots__; fills ``at`` if so.
bool dataclass_eq(PyTypeObject* t, std::vector<Py_ssize_t>& at) {
    PyObject* cls = reinterpret_cast<PyObject*>(t);
    PyObject* eq = PyDict_GetItemString(t->tp_dict, "__eq__");  // borrowed
    if (eq == nullptr || !PyFunction_Check(eq)) return false;
    PyCodeObject* code = reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(eq));
    if (!PyUnicode_Check(code->co_filename) ||
        PyUnicode_CompareWithASCIIString(code->co_filename, "<string>") != 0)
        return false;
    auto attr = [](PyObject* o, const char* name) {
        return py::reinterpret_steal<py::object>(PyObject_GetAttrString(o, name));
    };
    py::object qualname = attr(cls, "__qualname__");
    py::object eq_name = attr(eq, "__qualname__");
    py::object params = attr(cls, "__dataclass_params__");
    py::object on = params ? attr(params.ptr(), "eq") : py::object();
    py::object fields = attr(cls, "__dataclass_fields__");
    py::object slots = attr(cls, "__slots__");
    if (!qualname || !eq_name || !on || !fields || !slots || !PyDict_CheckExact(fields.ptr()) ||
        !PyTuple_CheckExact(slots.ptr())) {
        PyErr_Clear();
        return false;
    }
    py::object want = py::reinterpret_steal<py::object>(PyUnicode_FromFormat("%U.__eq__", qualname.ptr()));
    if (!want || PyObject_RichCompareBool(want.ptr(), eq_name.ptr(), Py_EQ) != 1 ||
        PyObject_IsTrue(on.ptr()) != 1 || PyDict_GET_SIZE(fields.ptr()) != PyTuple_GET_SIZE(slots.ptr())) {
        PyErr_Clear();
        return false;
    }
    Py_ssize_t pos = 0, j = 0;
    PyObject* name;
    PyObject* field;
    while (PyDict_Next(fields.ptr(), &pos, &name, &field)) {
        py::object compare = attr(field, "compare");
        if (!compare || PyObject_IsTrue(compare.ptr()) != 1 ||
            PyObject_RichCompareBool(name, PyTuple_GET_ITEM(slots.ptr(), j), Py_EQ) != 1 ||
            !PyUnicode_Check(name)) {
            PyErr_Clear();
            return false;
        }
        const char* text = PyUnicode_AsUTF8(name);
        const Py_ssize_t off = text != nullptr ? slot_offset(t, text) : -1;
        if (off < 0) {
            PyErr_Clear();
            return false;
        }
        at.push_back(off);
        ++j;
    }
    return true;
}

// ``t``'s FieldEq, found once per class.
const FieldEq& field_eq(PyTypeObject* t) {
    static std::vector<FieldEq> known;
    for (const FieldEq& k : known)
        if (k.type == t) return k;
    FieldEq fresh;
    fresh.ok = dataclass_eq(t, fresh.at);
    Py_INCREF(t);
    fresh.type = t;
    known.push_back(std::move(fresh));
    return known.back();
}

}  // namespace

// ``a == b`` (Python's ==) for two tuples of melds: an item compared with another of the
// same class whose __eq__ is its dataclass's field by field (FieldEq), any other pair
// and anything but two tuples by Python's ==; throws on an error.
int melds_equal(PyObject* a, PyObject* b) {
    if (!PyTuple_CheckExact(a) || !PyTuple_CheckExact(b)) return equal(a, b);
    if (PyTuple_GET_SIZE(a) != PyTuple_GET_SIZE(b)) return 0;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(a); ++j) {
        PyObject* x = PyTuple_GET_ITEM(a, j);
        PyObject* y = PyTuple_GET_ITEM(b, j);
        if (x == y) continue;
        const FieldEq& fe = Py_TYPE(x) == Py_TYPE(y) ? field_eq(Py_TYPE(x)) : field_eq(&PyBaseObject_Type);
        bool set = fe.ok;
        for (const Py_ssize_t at : fe.at) set = set && slot_value(x, at) != nullptr && slot_value(y, at) != nullptr;
        if (!set) {  // (an unset slot: Python's == raises, as it should)
            if (!equal(x, y)) return 0;
            continue;
        }
        for (const Py_ssize_t at : fe.at) {
            PyObject* fx = slot_value(x, at);
            PyObject* fy = slot_value(y, at);
            if (fx != fy && !equal(fx, fy)) return 0;
        }
    }
    return 1;
}

// Whether a tuple slot of a RecordedWin holds anything (a tuple's truth); -1 when
// the slot is unset or not a tuple.
int nonempty(PyObject* v) {
    if (v == nullptr || !PyTuple_CheckExact(v)) return -1;
    return PyTuple_GET_SIZE(v) != 0;
}

PyObject* win_checks(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    static Slots<1> table_slots;
    static constexpr const char* kNames[1] = {"core_lists"};
    static Slots<5> win_slots;
    static constexpr const char* kWinNames[5] = {"hand", "melds", "win_tile", "dora", "ura"};
    return python_errors([&]() -> PyObject* {
        if (nargs != 11)
            throw py::type_error(
                "win_checks(table, seat, tiles, win_tile, ron, win, melds, dora, ura, riichi, "
                "ura_from_log)");
        PyObject* table = args[0];
        if (!table_slots.of(Py_TYPE(table), kNames))
            throw py::type_error("win_checks: the table must be a replay.state._TableState");
        PyObject* lists = slot_value(table, table_slots.at[0]);
        if (lists == nullptr || !PyTuple_CheckExact(lists) ||
            PyTuple_GET_SIZE(lists) != kCoreListCount)
            throw py::value_error("win_checks: the table's core_lists must be a tuple of 17");
        PyObject* win = args[5];
        if (!win_slots.of(Py_TYPE(win), kWinNames))
            throw py::type_error("win_checks: win must be a RecordedWin");
        PyObject* shown_hand = slot_value(win, win_slots.at[0]);
        PyObject* shown_melds = slot_value(win, win_slots.at[1]);
        PyObject* shown_win_tile = slot_value(win, win_slots.at[2]);
        PyObject* shown_dora = slot_value(win, win_slots.at[3]);
        PyObject* shown_ura = slot_value(win, win_slots.at[4]);
        const int has_hand = nonempty(shown_hand);
        const int has_melds = nonempty(shown_melds);
        const int has_dora = nonempty(shown_dora);
        const int has_ura = nonempty(shown_ura);
        if (has_hand < 0 || has_melds < 0 || has_dora < 0 || has_ura < 0 ||
            shown_win_tile == nullptr)
            Py_RETURN_FALSE;
        bool ok = true;
        const long s = item_long(args[1], ok);
        const long win_tile = item_long(args[3], ok);
        const int ron = PyObject_IsTrue(args[4]);
        const int riichi = PyObject_IsTrue(args[9]);
        const int ura_from_log = PyObject_IsTrue(args[10]);
        if (ron < 0 || riichi < 0 || ura_from_log < 0) throw py::error_already_set();
        if (!ok || s < 0 || win_tile < 0 || win_tile >= 4 * kNumKinds) Py_RETURN_FALSE;
        // The winning hand: complete (else win_incomplete).
        long tiles[20];
        const long n = tile_ids(args[2], tiles, 20);
        std::uint8_t counts[kNumKinds];
        if (n < 0 || !count_tiles(tiles, n, counts) || !is_complete(counts)) Py_RETURN_FALSE;
        // A ron: not furiten (the concealed tiles are the hand without the winning tile).
        if (ron) {
            if (counts[win_tile >> 2] == 0) Py_RETURN_FALSE;
            --counts[win_tile >> 2];
            if (!furiten_clean(lists, s, wait_mask(counts))) Py_RETURN_FALSE;
        }
        // The shown hand: the same tile ids in any order (else ``hand``).
        if (has_hand) {
            long shown[20];
            const long m = tile_ids(shown_hand, shown, 20);
            if (m != n) Py_RETURN_FALSE;
            std::sort(tiles, tiles + n);
            std::sort(shown, shown + m);
            if (!std::equal(tiles, tiles + n, shown)) Py_RETURN_FALSE;
        }
        // The shown melds: equal as they are (else Python compares their keys).
        if ((has_hand || has_melds) && !melds_equal(args[6], shown_melds)) Py_RETURN_FALSE;
        // The shown winning tile (machi), if any: the same tile id (else ``win_tile``).
        if (shown_win_tile != Py_None && (item_long(shown_win_tile, ok) != win_tile || !ok))
            Py_RETURN_FALSE;
        // Dora and ura as shown, ura one per dora when they come from the log.
        if (has_dora) {
            if (!equal(args[7], shown_dora)) Py_RETURN_FALSE;
            if (riichi && ura_from_log) {
                const Py_ssize_t dora_count = PyObject_Length(args[7]);
                if (dora_count < 0) throw py::error_already_set();
                if (PyTuple_GET_SIZE(shown_ura) != dora_count) Py_RETURN_FALSE;
            }
            if ((riichi || has_ura) && !equal(args[8], shown_ura)) Py_RETURN_FALSE;
        }
        Py_RETURN_TRUE;
    });
}

namespace {

// A class make_value may build: a frozen slots dataclass whose __init__ only stores
// its fields (no __post_init__, every slot a field of __init__, object its only base),
// with the offsets of its fields in __init__'s order.
struct ValueClass {
    PyTypeObject* type = nullptr;  // held
    std::vector<Py_ssize_t> at;
};

// Whether ``t`` is such a class; fills ``out`` if so.
bool value_class(PyTypeObject* t, ValueClass& out) {
    PyObject* cls = reinterpret_cast<PyObject*>(t);
    if (t->tp_base != &PyBaseObject_Type || t->tp_dictoffset != 0) return false;
    if (PyObject_HasAttrString(cls, "__post_init__") ||
        !PyObject_HasAttrString(cls, "__dataclass_fields__"))
        return false;
    py::object names = py::reinterpret_steal<py::object>(PyObject_GetAttrString(cls, "__match_args__"));
    py::object slots = py::reinterpret_steal<py::object>(PyObject_GetAttrString(cls, "__slots__"));
    if (!names || !slots || !PyTuple_CheckExact(names.ptr()) || !PyTuple_CheckExact(slots.ptr())) {
        PyErr_Clear();
        return false;
    }
    const Py_ssize_t n = PyTuple_GET_SIZE(names.ptr());
    if (n != PyTuple_GET_SIZE(slots.ptr())) return false;  // a slot __init__ would not set
    std::vector<Py_ssize_t> at(static_cast<std::size_t>(n));
    for (Py_ssize_t j = 0; j < n; ++j) {
        PyObject* name = PyTuple_GET_ITEM(names.ptr(), j);
        if (!PyUnicode_Check(name)) return false;
        const char* text = PyUnicode_AsUTF8(name);
        if (text == nullptr) {
            PyErr_Clear();
            return false;
        }
        at[static_cast<std::size_t>(j)] = slot_offset(t, text);
        if (at[static_cast<std::size_t>(j)] < 0) return false;
    }
    Py_INCREF(cls);
    out.type = t;
    out.at = std::move(at);
    return true;
}

}  // namespace

PyObject* make_value(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) noexcept {
    // The few value classes of the replay, found once each; a class that is not one
    // is remembered too (and refused) so the check runs once.
    static std::vector<ValueClass> known;
    static std::vector<PyTypeObject*> refused;
    return python_errors([&]() -> PyObject* {
        if (nargs < 1 || !PyType_Check(args[0]))
            throw py::type_error("make_value(cls, *fields): cls must be a class");
        PyTypeObject* t = reinterpret_cast<PyTypeObject*>(args[0]);
        const ValueClass* vc = nullptr;
        for (const ValueClass& k : known)
            if (k.type == t) vc = &k;
        if (vc == nullptr) {
            for (PyTypeObject* r : refused)
                if (r == t) throw py::type_error("make_value: not a slots dataclass whose __init__ only sets its fields");
            ValueClass fresh;
            if (!value_class(t, fresh)) {
                Py_INCREF(args[0]);
                refused.push_back(t);
                throw py::type_error("make_value: not a slots dataclass whose __init__ only sets its fields");
            }
            known.push_back(std::move(fresh));
            vc = &known.back();
        }
        const Py_ssize_t n = static_cast<Py_ssize_t>(vc->at.size());
        if (nargs - 1 != n)
            throw py::type_error("make_value: one value per field of the class, in order");
        PyObject* obj = t->tp_alloc(t, 0);
        if (obj == nullptr) throw py::error_already_set();
        for (Py_ssize_t j = 0; j < n; ++j) {
            PyObject* v = args[j + 1];
            Py_INCREF(v);
            *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) +
                                          vc->at[static_cast<std::size_t>(j)]) = v;
        }
        return obj;
    });
}

}  // namespace replay_audit::core
