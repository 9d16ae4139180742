// The auditor's win in one call (score_bindings.hpp's def_auditor_win): win_row, the
// hands row of a win that agrees with its value filled in place, and events_except,
// the events of a hand without its draws and discards (auditing/wins.py and hands.py
// keep the Python loops as the reference).  Apart from the scoring bindings: these know
// the auditor's row, not only the scorer's values.
#include "score_bindings.hpp"

#include "fastcall.hpp"
#include "hand_events.hpp"
#include "hand_row.hpp"
#include "score_context.hpp"

namespace core = replay_audit::core;

namespace replay_audit::core::score_py {

namespace {

// The auditor's row of a win that agrees with its value (auditing/wins.py::_audit_win
// is the reference): the same cells, filled in the same order, where the recorded
// win's yaku, han, fu, points, limit, pao seat and payments are all what the core
// computes.  Anything else (a difference to report, a yakuman, a value that is not a
// plain int, a pao seat, a declined context) returns None before touching the row, and
// the Python code audits the win.
struct RowNames {
    PyObject* yaku = PyUnicode_InternFromString("yaku");
    PyObject* yakuman = PyUnicode_InternFromString("yakuman");
    PyObject* fu = PyUnicode_InternFromString("fu");
    PyObject* points = PyUnicode_InternFromString("points");
    PyObject* limit = PyUnicode_InternFromString("limit");
    PyObject* deltas = PyUnicode_InternFromString("deltas");
    PyObject* seat = PyUnicode_InternFromString("seat");
    PyObject* from_seat = PyUnicode_InternFromString("from_seat");
    PyObject* pao_seat = PyUnicode_InternFromString("pao_seat");
    PyObject* tsumo = PyUnicode_InternFromString("tsumo");
    PyObject* ron = PyUnicode_InternFromString("ron");
    PyObject* keys[17];
    RowNames() {
        const char* k[17] = {"result",     "winner",     "from_seat",  "pao_seat", "rec_fu",
                             "rec_han",    "rec_points", "rec_limit",  "rec_yaku", "rec_deltas",
                             "comp_fu",    "comp_han",   "comp_points", "comp_limit",
                             "comp_yaku",  "comp_pao_seat", "comp_deltas"};
        for (int i = 0; i < 17; ++i) keys[i] = PyUnicode_InternFromString(k[i]);
    }
};

const RowNames& row_names() {
    static const RowNames* n = new RowNames();  // never freed: lives as long as the module
    return *n;
}

// A plain int (not a bool or a subclass) within int64.
bool plain_int(PyObject* v, std::int64_t* out) {
    if (!v || !PyLong_CheckExact(v)) return false;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
    }
    *out = x;
    return true;
}

// ``None`` or a plain int equal to ``want``: a recorded value that agrees.
bool agrees(PyObject* v, std::int64_t want) {
    if (v == Py_None) return true;
    std::int64_t x;
    return plain_int(v, &x) && x == want;
}

// ``x`` written after ``*at`` (a comma first unless it starts the text).
void append_int(char** at, const char* start, std::int64_t x) {
    if (*at != start) *(*at)++ = ',';
    *at = std::to_chars(*at, *at + 24, x).ptr;  // as str(int); never short of room
}

using YakuPair = std::pair<std::int64_t, std::int64_t>;

py::object win_row_impl(core::HandRow& row, PyObject* e, PyObject* ctx, const core::ScoreRules& rules,
                        long dealer, long players, std::int64_t honba, std::int64_t sticks,
                        bool first_winner) {
    const RowNames& nm = row_names();
    if (players != 3 && players != 4) return py::none();
    PyObject* const names[9] = {nm.seat,   nm.from_seat, nm.pao_seat, nm.yaku,  nm.yakuman,
                                nm.fu,     nm.points,    nm.limit,    nm.deltas};
    py::object got[9];
    for (int i = 0; i < 9; ++i) {
        got[i] = py::reinterpret_steal<py::object>(PyObject_GetAttr(e, names[i]));
        if (!got[i]) {
            PyErr_Clear();
            return py::none();
        }
    }
    PyObject *seat_o = got[0].ptr(), *from_o = got[1].ptr(), *pao_o = got[2].ptr(),
             *yaku_o = got[3].ptr(), *yakuman_o = got[4].ptr(), *fu_o = got[5].ptr(),
             *points_o = got[6].ptr(), *limit_o = got[7].ptr(), *deltas_o = got[8].ptr();
    std::int64_t seat, from_seat;
    if (!plain_int(seat_o, &seat) || !plain_int(from_o, &from_seat)) return py::none();
    // a recorded pao seat other than the winner is the Python code's to compare
    if (pao_o != Py_None) {
        std::int64_t pao;
        if (!plain_int(pao_o, &pao) || pao != seat) return py::none();
    }
    // a yakuman (recorded) or a yaku list that is not plain pairs of ints: Python's
    if (!PyTuple_CheckExact(yakuman_o) || PyTuple_GET_SIZE(yakuman_o) != 0) return py::none();
    if (!PyTuple_CheckExact(yaku_o)) return py::none();
    const Py_ssize_t n_yaku = PyTuple_GET_SIZE(yaku_o);
    if (n_yaku > core::kMaxYaku) return py::none();
    YakuPair rec_set[core::kMaxYaku];
    int n_rec = 0;
    std::int64_t rec_han_sum = 0;
    constexpr std::int64_t kBound = std::int64_t{1} << 40;
    for (Py_ssize_t i = 0; i < n_yaku; ++i) {
        PyObject* pair = PyTuple_GET_ITEM(yaku_o, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return py::none();
        std::int64_t id, han;
        if (!plain_int(PyTuple_GET_ITEM(pair, 0), &id) ||
            !plain_int(PyTuple_GET_ITEM(pair, 1), &han) || han > kBound || han < -kBound ||
            id > kBound || id < -kBound)
            return py::none();
        rec_han_sum += han;
        if (han) rec_set[n_rec++] = YakuPair(id, han);
    }
    std::sort(rec_set, rec_set + n_rec);
    // the recorded payments: a plain tuple of ints, one per seat at least
    if (!PyTuple_CheckExact(deltas_o) || PyTuple_GET_SIZE(deltas_o) < players) return py::none();
    std::int64_t rec_deltas[4];
    for (long s = 0; s < players; ++s)
        if (!plain_int(PyTuple_GET_ITEM(deltas_o, s), &rec_deltas[s])) return py::none();
    // the value (as score_win_value) and its payments (as win_deltas, no pao seat)
    core::WinIn in;
    if (!read_win(ctx, &in)) {
        PyErr_Clear();
        return py::none();
    }
    core::WinOut out;
    if (core::score_win(in, rules, &out) == core::kDeclined) return py::none();
    if (out.error != core::kWinOk || out.n_yakuman != 0) return py::none();
    YakuPair comp_set[core::kMaxYaku];
    int n_comp = 0;
    for (int j = 0; j < out.n_yaku; ++j)
        if (out.yaku_han[j]) comp_set[n_comp++] = YakuPair(out.yaku_id[j], out.yaku_han[j]);
    std::sort(comp_set, comp_set + n_comp);
    // the checks of _audit_win: every recorded value as computed
    if (!agrees(points_o, out.points) || !agrees(limit_o, out.limit) || !agrees(fu_o, out.fu) ||
        n_rec != n_comp || !std::equal(rec_set, rec_set + n_rec, comp_set))
        return py::none();
    if (n_yaku != 0 && rec_han_sum != out.han) return py::none();
    constexpr long kSeatBound = 1000000;
    const auto within = [](std::int64_t x) { return x <= kBound && x >= -kBound; };
    if (dealer < -kSeatBound || dealer > kSeatBound || !within(honba) || !within(sticks) ||
        !within(out.ron) || !within(out.tsumo_dealer) || !within(out.tsumo_other) ||
        !within(out.base) || seat < 0 || seat >= players || from_seat < 0 ||
        from_seat >= players)
        return py::none();
    core::DeltasIn d;
    d.ron = out.ron;
    d.tsumo_dealer = out.tsumo_dealer;
    d.tsumo_other = out.tsumo_other;
    d.base = out.base;
    d.n_yakuman = 0;
    d.winner = static_cast<int>(seat);
    d.from_seat = static_cast<int>(from_seat);
    d.dealer = static_cast<int>(dealer);
    d.players = static_cast<int>(players);
    d.honba = honba;
    d.sticks = sticks;
    d.first_winner = first_winner;
    d.pao_seat = -1;
    std::int64_t paid[4];
    if (core::win_deltas(d, rules, paid) != core::kWinOk) return py::none();
    for (long s = 0; s < players; ++s)
        if (paid[s] != rec_deltas[s]) return py::none();
    // everything agrees: the value, and the row's cells in _audit_win's order
    py::tuple fields = value_tuple(out);  // han, fu, points, limit, ... (the value's own)
    py::object value = value_object(fields);
    char rec_yaku[core::kMaxYaku * 50], comp_yaku[core::kMaxYaku * 50], rec_text[4 * 25],
        comp_text[4 * 25];
    char* at = rec_yaku;
    for (int j = 0; j < n_rec; ++j) {
        append_int(&at, rec_yaku, rec_set[j].first);
        append_int(&at, rec_yaku, rec_set[j].second);
    }
    py::str rec_yaku_s(rec_yaku, static_cast<std::size_t>(at - rec_yaku));
    at = comp_yaku;
    for (int j = 0; j < n_comp; ++j) {
        append_int(&at, comp_yaku, comp_set[j].first);
        append_int(&at, comp_yaku, comp_set[j].second);
    }
    py::str comp_yaku_s(comp_yaku, static_cast<std::size_t>(at - comp_yaku));
    at = rec_text;
    for (long s = 0; s < players; ++s) append_int(&at, rec_text, rec_deltas[s]);
    py::str rec_text_s(rec_text, static_cast<std::size_t>(at - rec_text));
    at = comp_text;
    for (long s = 0; s < players; ++s) append_int(&at, comp_text, paid[s]);
    py::str comp_text_s(comp_text, static_cast<std::size_t>(at - comp_text));
    py::tuple deltas(players);
    for (long s = 0; s < players; ++s) deltas[s] = py::int_(paid[s]);
    py::object rec_han = n_yaku ? py::object(py::int_(rec_han_sum)) : py::object(py::none());
    PyObject* f = fields.ptr();
    PyObject* const cells[17] = {seat == from_seat ? nm.tsumo : nm.ron,
                                 seat_o,
                                 from_o,
                                 pao_o,
                                 fu_o,
                                 rec_han.ptr(),
                                 points_o,
                                 limit_o,
                                 rec_yaku_s.ptr(),
                                 rec_text_s.ptr(),
                                 PyTuple_GET_ITEM(f, 1),  // fu
                                 PyTuple_GET_ITEM(f, 0),  // han
                                 PyTuple_GET_ITEM(f, 2),  // points
                                 PyTuple_GET_ITEM(f, 3),  // limit
                                 comp_yaku_s.ptr(),
                                 Py_None,
                                 comp_text_s.ptr()};
    for (int i = 0; i < 17; ++i) row.put(nm.keys[i], cells[i]);
    return py::make_tuple(std::move(value), std::move(deltas));
}

// win_row(row, ev, ctx, rules, dealer, players, honba, sticks, first_winner), called
// at every win: positional arguments, read without pybind11's argument matching.
PyObject* win_row_py(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "win_row takes 9 arguments");
        return nullptr;
    }
    if (!PyDict_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "win_row: the row must be a dict");
        return nullptr;
    }
    try {
        const int first = PyObject_IsTrue(args[8]);
        if (first < 0) return nullptr;
        std::int64_t dealer, players, honba, sticks;  // plain ints, else Python's
        if (!plain_int(args[4], &dealer) || !plain_int(args[5], &players) ||
            !plain_int(args[6], &honba) || !plain_int(args[7], &sticks))
            Py_RETURN_NONE;
        core::HandRow row;
        row.dict = Py_NewRef(args[0]);
        return core::win_row_into(row, args[1], args[2], args[3], dealer, players, honba, sticks,
                                  first != 0)
            .release()
            .ptr();
    } catch (py::error_already_set& err) {
        err.restore();
        return nullptr;
    } catch (const py::cast_error& err) {
        PyErr_SetString(PyExc_TypeError, err.what());
        return nullptr;
    } catch (const std::exception& err) {
        PyErr_SetString(PyExc_RuntimeError, err.what());
        return nullptr;
    }
}

// events_except(events, skip): the events of the tuple (or HandEvents) ``events`` whose
// type is none of the classes in the tuple ``skip`` (exactly those types, not their
// subclasses), in order, as a list; None where ``events`` is neither.  The auditor's hand walk
// passes over the draws and discards this way (nine events in ten) without a Python
// loop step each (auditing/hands.py keeps the loop as the reference).
PyObject* events_except_py(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 2 || !PyTuple_CheckExact(args[1]) || PyTuple_GET_SIZE(args[1]) > 16) {
        PyErr_SetString(PyExc_TypeError, "events_except(events, skip): skip a tuple of classes");
        return nullptr;
    }
    // a tuple, or the lazy build's HandEvents: its draws and discards passed over
    // without an object (one is made only for a class not skipped)
    const core::EventSeq events(args[0]);
    PyObject* skip = args[1];
    const Py_ssize_t n_skip = PyTuple_GET_SIZE(skip);
    if (!events.ok()) Py_RETURN_NONE;
    PyObject* out = PyList_New(0);
    if (!out) return nullptr;
    const Py_ssize_t n = events.size();
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* type = reinterpret_cast<PyObject*>(events.type(i));
        bool skipped = false;
        for (Py_ssize_t j = 0; j < n_skip; ++j) {
            if (PyTuple_GET_ITEM(skip, j) == type) {
                skipped = true;
                break;
            }
        }
        if (skipped) continue;
        PyObject* ev = events.item(i);
        if (ev == nullptr || PyList_Append(out, ev) < 0) {
            Py_XDECREF(ev);
            Py_DECREF(out);
            return nullptr;
        }
        Py_DECREF(ev);
    }
    return out;
}

// ------------------------------------------------------ end of the auditor's win

}  // namespace

}  // namespace replay_audit::core::score_py

namespace replay_audit::core {

py::object win_row_into(HandRow& row, PyObject* ev, PyObject* ctx, PyObject* rules,
                        std::int64_t dealer, std::int64_t players, std::int64_t honba,
                        std::int64_t sticks, bool first_winner) {
    const ScoreRules& r = py::cast<const ScoreRules&>(py::handle(rules));
    if (dealer < -1000000 || dealer > 1000000 || players < 3 || players > 4) return py::none();
    return score_py::win_row_impl(row, ev, ctx, r, static_cast<long>(dealer), static_cast<long>(players),
                                  honba, sticks, first_winner);
}

bool is_core_win_row(PyObject* f) {
    return PyCFunction_Check(f) &&
           PyCFunction_GET_FUNCTION(f) ==
               reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&score_py::win_row_py));
}

void def_auditor_win(py::module_& m) {
    add_fastcall<&score_py::win_row_py>(m, "win_row",
        "win_row(row, ev, ctx, rules, dealer, players, honba, sticks, first_winner): the\n"
        "hands row of a win that agrees with its value in every cell, filled in place\n"
        "(auditing/wins.py::_audit_win is the reference): (value, deltas); None, the row\n"
        "untouched, for anything else (the Python code audits it).");
    add_fastcall<&score_py::events_except_py>(m, "events_except",
        "events_except(events, skip): the events of the tuple whose type is none of the\n"
        "classes of the tuple skip (exact types), in order; None if events is no tuple\n"
        "(nor a HandEvents).");
}

}  // namespace replay_audit::core
