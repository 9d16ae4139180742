// The statistics' per-hand event scan (facts.hpp): replay_audit.stats.scan.py_scan_hand's
// answer in one C loop (what each seat did: riichi, calls, the turn of its win; the
// recorded results), so that Python only writes the rows.  Nothing is copied or changed:
// the events' slots are read at their offsets, as replay.cpp reads them.
#include "facts.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>

#include "facts_scan.hpp"
#include "hand_events.hpp"
#include "py_errors.hpp"
#include "slots.hpp"
#include "waits.hpp"

namespace py = pybind11;

namespace replay_audit::core {
namespace facts_detail {

namespace {

constexpr int kTileIds = 136;

// The ``seat`` and ``tile`` slots of one event class, found once per class (the class is
// held, so that no other class can take its address).
struct EventSlots {
    PyTypeObject* type = nullptr;
    Py_ssize_t seat = -1;
    Py_ssize_t tile = -1;
    bool ok = false;

    bool of(PyTypeObject* t, bool with_tile) {
        if (t == type) return ok;
        seat = slot_offset(t, "seat");
        tile = with_tile ? slot_offset(t, "tile") : 0;
        ok = seat >= 0 && tile >= 0;
        Py_INCREF(t);
        Py_XDECREF(type);
        type = t;
        return ok;
    }
};

// A plain int's value when it fits one digit (seats and tile ids always do), read inline:
// the scan reads two a move, and the call to PyLong_AsLongAndOverflow was a tenth of its
// time.  -1 otherwise (negative, wider, or a Python whose ints we do not know).
inline long one_digit(PyObject* v) {
#if PY_VERSION_HEX >= 0x030C0000
    PyLongObject* x = reinterpret_cast<PyLongObject*>(v);
    if (!PyUnstable_Long_IsCompact(x)) return -1;
    const Py_ssize_t value = PyUnstable_Long_CompactValue(x);
    return value >= 0 ? static_cast<long>(value) : -1;
#else
    const Py_ssize_t size = Py_SIZE(v);
    if (size == 0) return 0;
    if (size != 1) return -1;
    return static_cast<long>(reinterpret_cast<PyLongObject*>(v)->ob_digit[0]);
#endif
}

// A slot holding a plain int in [0, limit): its value, else -1 (the hand is declined).
// Inlined: two reads a move, and the call was a tenth of the scan's instructions.
__attribute__((always_inline)) inline long small_int(PyObject* obj, Py_ssize_t at, long limit) {
    PyObject* v = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + at);
    if (v == nullptr || !PyLong_CheckExact(v)) return -1;
    long x = one_digit(v);
    if (x < 0) {  // a wider int: the general read (a seat past the table may be wide)
        int overflow = 0;
        x = PyLong_AsLongAndOverflow(v, &overflow);
        if (overflow != 0) return -1;
    }
    if (x < 0 || x >= limit) return -1;
    return x;
}

// A lazy event's seat or tile id (hand_events.hpp) in [0, limit), else -1: small_int's
// answer for the record of a draw or discard that has no object.
inline long record_int(long v, long limit) { return v >= 0 && v < limit ? v : -1; }

// A slot's value (borrowed; nullptr while unset).
PyObject* slot_of(PyObject* obj, Py_ssize_t at) {
    return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + at);
}

// Two named slots of one class, found once per class (as EventSlots).
struct Slots2 {
    PyTypeObject* type = nullptr;
    Py_ssize_t at[2] = {-1, -1};
    bool ok = false;

    bool of(PyTypeObject* t, const char* a, const char* b) {
        if (t == type) return ok;
        at[0] = slot_offset(t, a);
        at[1] = slot_offset(t, b);
        ok = at[0] >= 0 && at[1] >= 0;
        Py_INCREF(t);
        Py_XDECREF(type);
        type = t;
        return ok;
    }
};

constexpr long kAnySeat = 1L << 30;  // seats past the table are fine (ignored), negatives not

// One seat's concealed tiles by id, rebuilt as stats.scan.riichi_wait_kinds does (only
// what it needs: the deal, the seat's draws, discards, ankan and kita; an open call ends it).
struct SeatTiles {
    bool dealt = false;   // dealt 13 tiles: else the waits are unknown (None)
    bool missing = false;  // discarded a tile it did not hold: unknown (None)
    bool called = false;   // an open call: Python rebuilds the tiles (the hand is declined)
    int held = 0;
    std::uint16_t ids[kTileIds] = {};
};

// An ankan's or kita's tiles (``meld.tiles``) taken out of the seat's concealed tiles, as
// stats.scan.riichi_wait_kinds takes them: one it does not hold makes the waits unknown
// (``missing``, as Python's ValueError).  Before, any call declined a riichi after it, and
// the hands with a closed kan before a riichi (270 on the Phoenix corpus) were Python's.
void conceal_meld(SeatTiles& s, PyObject* meld_tiles) {
    if (!s.dealt) return;  // the waits are unknown anyway (None)
    if (meld_tiles == nullptr || !PyTuple_CheckExact(meld_tiles)) throw Declined{};
    const Py_ssize_t size = PyTuple_GET_SIZE(meld_tiles);
    for (Py_ssize_t j = 0; j < size; ++j) {
        PyObject* v = PyTuple_GET_ITEM(meld_tiles, j);
        if (!PyLong_CheckExact(v)) throw Declined{};
        const long id = one_digit(v);
        if (id < 0 || id >= kTileIds) throw Declined{};
        if (s.ids[id] == 0) {
            s.missing = true;
        } else {
            --s.ids[id];
            --s.held;
        }
    }
}

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

PyObject* int_or_none(long v) {
    if (v == 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

PyObject* seat_tuple(Facts& f) {
    PyObject* waits = f.waits != nullptr ? f.waits : Py_None;
    Py_INCREF(waits);
    return Py_BuildValue("(NNNOOOlNO)", int_or_none(f.riichi_turn), int_or_none(f.riichi_order),
                         waits, f.accepted ? Py_True : Py_False, f.called ? Py_True : Py_False,
                         f.ankan ? Py_True : Py_False, f.kita, int_or_none(f.win_turn),
                         f.taken ? Py_True : Py_False);
}

}  // namespace

void scan_hand(Scan& out, PyObject* events, long n, PyObject* haipai,
                             PyObject* const* cls, PyObject* const* kinds) {
    static EventSlots draw_slots, discard_slots, declare_slots, call_slots, accept_slots,
        win_slots;
    static Slots2 call_meld, meld_slots, meld_tiles;
    PyTypeObject* draw_cls = reinterpret_cast<PyTypeObject*>(cls[kDraw]);
    PyTypeObject* discard_cls = reinterpret_cast<PyTypeObject*>(cls[kDiscard]);
    PyTypeObject* declare_cls = reinterpret_cast<PyTypeObject*>(cls[kDeclare]);
    PyTypeObject* call_cls = reinterpret_cast<PyTypeObject*>(cls[kCall]);
    PyTypeObject* accept_cls = reinterpret_cast<PyTypeObject*>(cls[kAccept]);
    PyTypeObject* win_cls = reinterpret_cast<PyTypeObject*>(cls[kWin]);
    PyTypeObject* rec_draw_cls = reinterpret_cast<PyTypeObject*>(cls[kRecDraw]);
    PyTypeObject* meld_cls = reinterpret_cast<PyTypeObject*>(cls[kMeld]);
    if (!draw_slots.of(draw_cls, true) || !discard_slots.of(discard_cls, true) ||
        !declare_slots.of(declare_cls, false) || !call_slots.of(call_cls, false) ||
        !accept_slots.of(accept_cls, false) || !win_slots.of(win_cls, false) ||
        !call_meld.of(call_cls, "meld", "seat") || !meld_slots.of(meld_cls, "kind", "from_seat") ||
        !meld_tiles.of(meld_cls, "tiles", "called"))
        throw Declined{};
    SeatTiles tiles[kMaxSeats];
    const long dealt = static_cast<long>(std::min<Py_ssize_t>(PyTuple_GET_SIZE(haipai), n));
    PyObject* dealt_hex = PyList_New(dealt);  // each seat's dealt tile ids as hex
    if (dealt_hex == nullptr) throw py::error_already_set();
    out.dealt = py::reinterpret_steal<py::object>(dealt_hex);
    for (long s = 0; s < dealt; ++s) {
        PyObject* deal = PyTuple_GET_ITEM(haipai, s);
        if (!PyTuple_CheckExact(deal)) throw Declined{};
        const Py_ssize_t size = PyTuple_GET_SIZE(deal);
        PyObject* hex = PyUnicode_New(2 * size, 127);
        if (hex == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(dealt_hex, s, hex);
        Py_UCS1* out = PyUnicode_1BYTE_DATA(hex);
        for (Py_ssize_t j = 0; j < size; ++j) {
            PyObject* v = PyTuple_GET_ITEM(deal, j);
            if (!PyLong_CheckExact(v)) throw Declined{};
            // inline, and without PyLong_AsLong's OverflowError left set on a wide int
            const long id = one_digit(v);
            if (id < 0 || id >= kTileIds) throw Declined{};  // (bytes() takes 0-255)
            out[2 * j] = "0123456789abcdef"[id >> 4];
            out[2 * j + 1] = "0123456789abcdef"[id & 15];
            if (size == 13) ++tiles[s].ids[id];
        }
        if (size == 13) {
            tiles[s].dealt = true;
            tiles[s].held = 13;
        }
    }
    Facts* facts = out.facts;
    long ndisc[kMaxSeats] = {};
    bool pending[kMaxSeats] = {};
    long last = -1;
    long& declared = out.declared;
    py::list& wins = out.wins;
    py::list& draws = out.draws;
    // a tuple, or the lazy build's HandEvents (its draws and discards read from their
    // records: ``ev`` null)
    EventSeq evs(events);
    if (!evs.ok()) throw Declined{};
    evs.read_as(events, draw_cls, discard_cls);
    const Py_ssize_t count = evs.size();
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* ev = evs.object(i);
        PyTypeObject* t = evs.type(i);
        if (t == draw_cls) {
            const long seat = ev != nullptr ? small_int(ev, draw_slots.seat, kAnySeat)
                                            : record_int(evs.record(i).seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n && tiles[seat].dealt) {
                const long id = ev != nullptr ? small_int(ev, draw_slots.tile, kTileIds)
                                              : record_int(evs.record(i).tile, kTileIds);
                if (id < 0) throw Declined{};
                ++tiles[seat].ids[id];
                ++tiles[seat].held;
            }
        } else if (t == discard_cls) {
            const long seat = ev != nullptr ? small_int(ev, discard_slots.seat, kAnySeat)
                                            : record_int(evs.record(i).seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                ++ndisc[seat];
                SeatTiles& s = tiles[seat];
                if (s.dealt) {
                    const long id = ev != nullptr ? small_int(ev, discard_slots.tile, kTileIds)
                                                  : record_int(evs.record(i).tile, kTileIds);
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
                    Py_XDECREF(facts[seat].waits);
                    facts[seat].waits = nullptr;
                    PyObject* kinds_count = wait_kinds(s);
                    if (kinds_count == nullptr) throw py::error_already_set();
                    if (kinds_count == Py_None) {
                        Py_DECREF(kinds_count);
                    } else {
                        facts[seat].waits = kinds_count;
                    }
                }
            }
            last = seat;
        } else if (t == call_cls) {
            const long seat = small_int(ev, call_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat >= n) continue;
            PyObject* meld = slot_of(ev, call_meld.at[0]);
            if (meld == nullptr || Py_TYPE(meld) != meld_cls) throw Declined{};
            PyObject* kind = slot_of(meld, meld_slots.at[0]);
            int k = 0;
            while (k < kMeldKinds && kinds[k] != kind) ++k;
            if (k == kMeldKinds) throw Declined{};
            if (k == kAnkan || k == kKita) {
                conceal_meld(tiles[seat], slot_of(meld, meld_tiles.at[0]));
            } else {
                tiles[seat].called = true;
            }
            Facts& f = facts[seat];
            f.any = true;
            if (k == kChi || k == kPon || k == kDaiminkan || k == kKakan) f.called = true;
            if (k == kAnkan) f.ankan = true;
            else if (k == kKita) ++f.kita;
            if (k == kChi || k == kPon || k == kDaiminkan) {
                PyObject* from = slot_of(meld, meld_slots.at[1]);
                long taken_from = last;
                if (from == nullptr) throw Declined{};
                if (from != Py_None) {
                    if (!PyLong_CheckExact(from)) throw Declined{};
                    int overflow = 0;
                    taken_from = PyLong_AsLongAndOverflow(from, &overflow);
                    if (overflow != 0 || taken_from < 0) throw Declined{};
                }
                if (taken_from >= 0 && taken_from < n) {
                    facts[taken_from].any = true;
                    facts[taken_from].taken = true;
                }
            }
        } else if (t == declare_cls) {
            const long seat = small_int(ev, declare_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                Facts& f = facts[seat];
                f.any = true;
                if (f.riichi_turn == 0) {
                    f.riichi_turn = ndisc[seat] + 1;
                    f.riichi_order = ++declared;
                    pending[seat] = true;
                }
            }
        } else if (t == accept_cls) {
            const long seat = small_int(ev, accept_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                facts[seat].any = true;
                facts[seat].accepted = true;
            }
        } else if (t == win_cls) {
            const long seat = small_int(ev, win_slots.seat, kAnySeat);
            if (seat < 0) throw Declined{};
            if (seat < n) {
                Facts& f = facts[seat];
                f.any = true;
                if (f.win_turn == 0) f.win_turn = ndisc[seat] + 1;
            }
            if (PyList_Append(wins.ptr(), ev) < 0) throw py::error_already_set();
        } else if (t == rec_draw_cls) {
            if (PyList_Append(draws.ptr(), ev) < 0) throw py::error_already_set();
        } else {
            // a subclass of a class read above: Python's isinstance tests answer it
            for (int c = kDiscard; c < kMeld; ++c)
                if (PyObject_TypeCheck(ev, reinterpret_cast<PyTypeObject*>(cls[c])))
                    throw Declined{};
        }
    }
}

bool check_classes(PyObject* classes, PyObject* kinds) {
    if (!PyTuple_CheckExact(classes) || PyTuple_GET_SIZE(classes) != kClasses ||
        !PyTuple_CheckExact(kinds) || PyTuple_GET_SIZE(kinds) != kMeldKinds) {
        PyErr_SetString(PyExc_TypeError, "the facts' scan: 8 classes and 6 meld kinds, as tuples");
        return false;
    }
    for (int j = 0; j < kClasses; ++j) {
        if (!PyType_Check(PyTuple_GET_ITEM(classes, j))) {
            PyErr_SetString(PyExc_TypeError, "the facts' scan: the event classes must be classes");
            return false;
        }
    }
    return true;
}

namespace {

PyObject* scan_tuple(PyObject* events, long n, PyObject* haipai, PyObject* const* cls,
                     PyObject* const* kinds) {
    Scan scan;
    scan_hand(scan, events, n, haipai, cls, kinds);
    PyObject* seats = PyList_New(n);
    if (seats == nullptr) throw py::error_already_set();
    py::object seats_owner = py::reinterpret_steal<py::object>(seats);
    for (long s = 0; s < n; ++s) {
        Facts& f = scan.facts[s];
        PyObject* item = f.any ? seat_tuple(f) : (Py_INCREF(Py_None), Py_None);
        if (item == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(seats, s, item);
    }
    return PyTuple_Pack(5, seats, py::int_(scan.declared).ptr(), scan.wins.ptr(),
                        scan.draws.ptr(), scan.dealt.ptr());
}

}  // namespace

}  // namespace facts_detail

PyObject* hand_scan(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    using namespace facts_detail;  // not at file scope: it would reach the unity build's next files
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "hand_scan takes 5 arguments");
        return nullptr;
    }
    PyObject* events = args[0];
    PyObject* haipai = args[2];
    PyObject* classes = args[3];
    PyObject* kinds = args[4];
    if (!check_classes(classes, kinds)) return nullptr;
    if ((!PyTuple_CheckExact(events) && !is_hand_events(events)) || !PyTuple_CheckExact(haipai) ||
        !PyLong_CheckExact(args[1]))
        Py_RETURN_NONE;
    const long n = PyLong_AsLong(args[1]);
    if (n < 1 || n > kMaxSeats) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return python_errors([&]() -> PyObject* {
        return scan_tuple(events, n, haipai, &PyTuple_GET_ITEM(classes, 0), &PyTuple_GET_ITEM(kinds, 0));
    });
}

}  // namespace replay_audit::core
