// One hand's event loop (replay_hand.hpp): replay_audit.replay.table._Table.run for an
// XML log, in one core call a hand instead of a Python ``while`` with its own dispatch.
// The state stays the table's (Python): runs of draws and discards go to the ``play``
// given (the core's play_moves), a call, a kan dora indicator or a draw result to the
// core's own rooms (replay_rooms.cpp) and, where they decline it, to the table's Python
// method (its room), riichi steps to the latter; a win whose checks find nothing is made
// here, as ``_Results._win`` makes it; anything else about a win is left to ``_win``.  The Python ``run`` stays the
// reference (tests/test_core_replay_hand.py holds them equal on the corpus).
#include "replay_hand.hpp"

#include "hand_events.hpp"
#include "py_errors.hpp"
#include "replay_hand_table.hpp"
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

// In hand: the table's slots, the classes and names (replay_hand_table.hpp).
namespace hand {
namespace {

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
}  // namespace hand

PyObject* run_hand(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    using namespace hand;  // not at file scope: it would reach the unity build's next files
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
    using namespace hand;  // not at file scope: it would reach the unity build's next files
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
