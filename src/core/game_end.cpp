// The end of a game for the auditor's one call (game_end.hpp says what each part is the
// core's copy of).  Counted as scoring/final.py counts a game's final points where its
// rules are whole numbers: in 1/12000 of a point, in integers, so that every value and
// its rounding is exact and each point comes out as the float Python's int / int gives.
#include "game_end.hpp"

#include <Python.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "fastcall.hpp"
#include "py_errors.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace replay_audit::core {

namespace {

using I64 = std::int64_t;

// scoring/final.py's units: a point is _UNIT of them, a raw point _PER_RAW, a tenth _TENTH.
constexpr I64 kUnit = 12000, kPerRaw = kUnit / 1000, kTenth = kUnit / 10;
constexpr I64 kBound = I64{1} << 40;  // scores and rules within it: no product overflows
constexpr I64 kMaxSticks = I64{1} << 20;  // leftover sticks (times a cost within kBound)

// A plain int (not a bool or a subclass) within +-2**40, else Declined.
I64 plain(PyObject* v) {
    if (v == nullptr || !PyLong_CheckExact(v)) throw Declined{};
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred()) || x > kBound || x < -kBound) {
        PyErr_Clear();
        throw Declined{};
    }
    return x;
}

bool flag(PyObject* v) {
    if (v == Py_True) return true;
    if (v == Py_False) return false;
    throw Declined{};
}

// An attribute (a new reference), Declined where it is missing.
py::object attr(PyObject* obj, const char* name) {
    PyObject* v = PyObject_GetAttrString(obj, name);
    if (v == nullptr) {
        PyErr_Clear();
        throw Declined{};
    }
    return py::reinterpret_steal<py::object>(v);
}

// scoring.final_core.FinalRule as the core counts with it.
struct Rule {
    I64 players = 0, return_points = 0, riichi_cost = 0;
    bool to_top = false, exact = false, floating = false;
    std::vector<std::vector<I64>> places;  // final._place_units: a row per uma row
};

enum RuleField { F_PLAYERS, F_RETURN, F_RIICHI_COST, F_TO_TOP, F_EXACT, F_FLOATING, F_PLACES, F_COUNT };
constexpr const char* kRuleNames[F_COUNT] = {"players",  "return_points", "riichi_cost", "to_top",
                                             "exact",    "floating",      "places"};
NamedSlots<F_COUNT> rule_slots;

Rule read_rule(PyObject* obj) {
    PyObject* v[F_COUNT];
    named_values(obj, rule_slots, kRuleNames, "final rule", v);
    Rule r;
    r.players = plain(v[F_PLAYERS]);
    r.return_points = plain(v[F_RETURN]);
    r.riichi_cost = plain(v[F_RIICHI_COST]);
    r.to_top = flag(v[F_TO_TOP]);
    r.exact = flag(v[F_EXACT]);
    r.floating = flag(v[F_FLOATING]);
    if (r.players != 3 && r.players != 4) throw Declined{};
    PyObject* rows = v[F_PLACES];
    if (!PyTuple_CheckExact(rows)) throw Declined{};
    // a floating uma's row is picked by how many seats are below the return: 0 to all
    const Py_ssize_t need = r.floating ? r.players + 1 : 1;
    if (PyTuple_GET_SIZE(rows) < need) throw Declined{};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rows); ++i) {
        PyObject* row = PyTuple_GET_ITEM(rows, i);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) < r.players) throw Declined{};
        std::vector<I64> units(static_cast<std::size_t>(r.players));
        for (I64 p = 0; p < r.players; ++p) units[static_cast<std::size_t>(p)] = plain(PyTuple_GET_ITEM(row, p));
        r.places.push_back(std::move(units));
    }
    return r;
}

// The rule of ``obj``, read once for the games that share it: the auditor makes one
// FinalRule per reading of a lobby's logs (auditing/chain.py::_final_rule), the same
// object game after game.  Held by a reference, so its address stays its own.
const Rule& rule_of(PyObject* obj) {
    static PyObject* held = nullptr;
    static Rule rule;
    if (obj != held) {
        Rule fresh = read_rule(obj);
        Py_INCREF(obj);
        Py_XDECREF(held);
        held = obj;
        rule = std::move(fresh);
    }
    return rule;
}

// scoring/final.py::final_points in its integer count: the raw final scores (the leftover
// sticks to the first seat of the highest score) and each seat's final points.
void settle(const Rule& r, const std::vector<I64>& scores, I64 sticks_left, std::vector<I64>& raw,
            std::vector<double>& points) {
    const auto n = static_cast<std::size_t>(r.players);
    if (scores.size() < n || sticks_left < 0 || sticks_left > kMaxSticks) throw Declined{};
    raw.assign(scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(n));
    for (I64 x : raw)
        if (x > kBound || x < -kBound) throw Declined{};
    if (sticks_left && r.to_top) *std::max_element(raw.begin(), raw.end()) += sticks_left * r.riichi_cost;
    const I64 ret = r.return_points;
    std::size_t below = 0;
    for (I64 x : raw) below += x < ret;
    const std::vector<I64>& places = r.places[r.floating ? below : 0];
    // places from the top; equal scores: the lower seat first (Python's stable sort)
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&raw](std::size_t a, std::size_t b) { return raw[a] > raw[b]; });
    points.assign(n, 0.0);
    if (r.exact) {  // every value to the nearest tenth, an exact half away from zero
        for (std::size_t place = 0; place < n; ++place) {
            const std::size_t seat = order[place];
            const I64 u = (raw[seat] - ret) * kPerRaw + places[place];
            const I64 tenths = u >= 0 ? (u + kTenth / 2) / kTenth : -((kTenth / 2 - u) / kTenth);
            points[seat] = static_cast<double>(tenths) / 10;
        }
        return;
    }
    // era1: each other seat's score to the nearest 1000 (a half away from zero), the top
    // taking minus the sum of the others
    I64 others = 0;
    for (std::size_t place = 1; place < n; ++place) {
        const std::size_t seat = order[place];
        const I64 x = raw[seat];
        const I64 rounded = x >= 0 ? (x + 500) / 1000 * 1000 : -((500 - x) / 1000 * 1000);
        const I64 value = (rounded - ret) * kPerRaw + places[place];
        points[seat] = static_cast<double>(value) / kUnit;
        others += value;
    }
    points[order[0]] = static_cast<double>(-others) / kUnit;
}

// A recorded final point as Python compares it: a float, or a plain int.
double recorded_point(PyObject* v) {
    if (PyFloat_CheckExact(v)) return PyFloat_AS_DOUBLE(v);
    return static_cast<double>(plain(v));
}

// final_points(scores, sticks_left, final): tests/test_core_game_end.py holds it to
// scoring/final.py::final_points.
PyObject* final_points_py(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return python_errors([&]() -> PyObject* {
        if (nargs != 3) {
            PyErr_SetString(PyExc_TypeError, "final_points takes 3 arguments");
            throw py::error_already_set();
        }
        PyObject* t = args[0];
        if (!PyTuple_CheckExact(t)) throw Declined{};
        std::vector<I64> scores;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); ++i) scores.push_back(plain(PyTuple_GET_ITEM(t, i)));
        std::vector<I64> raw;
        std::vector<double> points;
        settle(rule_of(args[2]), scores, plain(args[1]), raw, points);
        py::tuple raw_t(raw.size()), points_t(points.size());
        for (std::size_t s = 0; s < raw.size(); ++s) {
            raw_t[s] = py::int_(raw[s]);
            points_t[s] = py::float_(points[s]);
        }
        return py::make_tuple(raw_t, points_t).release().ptr();
    });
}

}  // namespace

bool dealer_keeps(const FlowRules& r, const FlowEnd& e) {
    return e.won ? e.dealer_won && r.renchan_on_win : e.abortive || (e.dealer_tenpai && r.renchan_on_tenpai);
}

bool game_over_after(const FlowRules& r, const FlowEnd& e, const std::vector<I64>& scores) {
    const I64 players = r.players;
    if (r.max_hands && e.index + 1 >= r.max_hands) return true;
    if (e.dealer < 0 || e.dealer >= players || scores.size() < static_cast<std::size_t>(players))
        throw Declined{};
    I64 low = scores[0], high = scores[0];
    for (I64 s = 1; s < players; ++s) {
        low = std::min(low, scores[static_cast<std::size_t>(s)]);
        high = std::max(high, scores[static_cast<std::size_t>(s)]);
    }
    if (r.bust && low < 0) return true;  // "bust"
    const I64 last = (r.hanchan ? 4 : 0) + players - 1;  // flow.all_last_index
    if (e.round_index < last) return false;
    const bool reached = high >= r.points_to_end;
    const bool can_end = reached || !r.west_extension;
    if (dealer_keeps(r, e)) {  // "dealer_top": on top, where the rules stop the dealer
        const I64 mine = scores[static_cast<std::size_t>(e.dealer)];
        bool top = true;  // flow.ranks: ties go to the lower seat
        for (I64 s = 0; s < players; ++s) {
            const I64 other = scores[static_cast<std::size_t>(s)];
            if (s != e.dealer && (other > mine || (other == mine && s < e.dealer))) top = false;
        }
        const bool stops = e.won ? r.stops_all_last : r.stops_on_tenpai && !e.abortive;
        return stops && can_end && top;
    }
    if (e.round_index <= last) return can_end;  // "all_last"
    if (reached) return true;                    // "sudden_death"
    return e.round_index >= last + 4 + 4 * (r.extension_winds - 1);  // "extension_end"
}

bool final_line_agrees(PyObject* final, PyObject* owari, const std::vector<I64>& scores, I64 sticks_left) {
    if (final == Py_None || owari == Py_None) return false;
    const Rule& r = rule_of(final);
    std::vector<I64> raw;
    std::vector<double> points;
    settle(r, scores, sticks_left, raw, points);
    const auto n = static_cast<Py_ssize_t>(r.players);
    // _check_final: the final scores are the last scores plus the leftover sticks
    const py::object rec_scores = attr(owari, "scores");
    if (!PyTuple_CheckExact(rec_scores.ptr()) || PyTuple_GET_SIZE(rec_scores.ptr()) < n) return false;
    for (Py_ssize_t s = 0; s < n; ++s)
        if (plain(PyTuple_GET_ITEM(rec_scores.ptr(), s)) != raw[static_cast<std::size_t>(s)]) return false;
    // _misses: no seat's final points more than 0.05 off
    const py::object rec_points = attr(owari, "points");
    if (!PyTuple_CheckExact(rec_points.ptr()) || PyTuple_GET_SIZE(rec_points.ptr()) < n) return false;
    for (Py_ssize_t s = 0; s < n; ++s) {
        const double rec = recorded_point(PyTuple_GET_ITEM(rec_points.ptr(), s));
        if (!std::isfinite(rec) || std::fabs(rec - points[static_cast<std::size_t>(s)]) > 0.05) return false;
    }
    return true;
}

void def_final_points(py::module_& m) {
    add_fastcall<&final_points_py>(m, "final_points",
        "final_points(scores, sticks_left, final): (raw final scores, final points) of the\n"
        "players' seats as scoring/final.py::final_points counts them, final a\n"
        "scoring.final_core.FinalRule; None where the core declines (a value not a plain int).");
}

}  // namespace replay_audit::core
