// The auditor's hands of one game in one call: auditing/game.py::_GameAuditor.run's loop
// (auditing/hands.py::_audit_hand for each hand, auditing/chain.py::_check_transition
// between two, scoring/flow.py::next_hand_from for the next hand's state) for a game in
// which nothing is to be reported.  The Python code is the reference and audits every
// other game: the core walks the hands from the computed start, places the riichi
// sticks, fills each result's row (a win through _core.win_row, an exhaustive draw's
// noten payments, an abortive draw's zeros), checks every recorded value the Python
// code checks (the scores after a riichi stick and before each result, the payments,
// the result's honba and sticks, the abortive draw's condition and rules, the next
// hand's round, honba, sticks, dealer and start scores) and, where all of them agree,
// returns the rows, the wins' values, the scores after the last hand and how it ended.
// Anything else (a difference, a pao seat, a nagashi mangan, a result the replay did
// not rebuild, the game's end before its last hand, a value that is not a plain int)
// gives None before anything is written, and the Python code audits the whole game.
// Past the last hand it checks the game's end as auditing/chain.py::_check_game_end
// does where the log has one reading of its final points (game_end.hpp): settled where
// the rules end the game there and the final line agrees, else the Python code checks
// the end (the hands' rows stand either way).  The rows are dicts or, for the runner's
// parts, the cells of a part's hands table (hand_row.hpp), taken back if declined.
#include "hand_audit.hpp"

#include <Python.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "fastcall.hpp"
#include "game_end.hpp"
#include "hand_events.hpp"
#include "hand_row.hpp"
#include "py_errors.hpp"
#include "score_bindings.hpp"
#include "slots.hpp"

namespace py = pybind11;
namespace core = replay_audit::core;

namespace {

using I64 = std::int64_t;

// Python-side names, interned once (never freed: they live as long as the module).
struct Names {
    PyObject* intern(const char* s) { return PyUnicode_InternFromString(s); }
    PyObject *index = intern("index"), *round_index = intern("round_index"),
             *honba = intern("honba"), *sticks = intern("sticks"), *dealer = intern("dealer"),
             *scores = intern("scores"), *events = intern("events"), *label = intern("label"),
             *seat = intern("seat"), *scores_before = intern("scores_before"),
             *deltas = intern("deltas"), *seq = intern("seq"), *kind = intern("kind"),
             *results = intern("results"), *result = intern("result"), *win = intern("win"),
             *draw = intern("draw"), *abort_ok = intern("abort_ok"), *pao = intern("pao"),
             *tenpai = intern("tenpai"), *nagashi = intern("nagashi");
    // the row's keys
    PyObject *file = intern("file"), *log_id = intern("log_id"),
             *hand_index = intern("hand_index"), *hand = intern("hand"),
             *rec_deltas = intern("rec_deltas"), *comp_deltas = intern("comp_deltas"),
             *n_findings = intern("n_findings"), *status = intern("status"), *ok = intern("ok"),
             *exhaustive = intern("exhaustive"), *nm = intern("nm");
    // the outcome's keys (auditing/base.py::_Outcome)
    PyObject *winners = intern("winners"), *dealer_won = intern("dealer_won"),
             *draw_kind = intern("draw_kind"), *dealer_tenpai = intern("dealer_tenpai"),
             *riichi = intern("riichi"), *log_end = intern("log_end");
};

const Names& names() {
    static const Names* n = new Names();
    return *n;
}

[[noreturn]] void declined() {
    PyErr_Clear();
    throw core::Declined{};
}

py::object attr(PyObject* obj, PyObject* name) {
    PyObject* v = PyObject_GetAttr(obj, name);
    if (!v) declined();
    return py::reinterpret_steal<py::object>(v);
}

constexpr I64 kBound = I64{1} << 40;

// A plain int (not a bool or a subclass) within +-2**40, else the core declines.
I64 plain(PyObject* v) {
    if (!v || !PyLong_CheckExact(v)) declined();
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred()) || x > kBound || x < -kBound) declined();
    return x;
}

// The plain ints of a tuple.
std::vector<I64> ints(PyObject* t) {
    if (!PyTuple_CheckExact(t)) declined();
    const Py_ssize_t n = PyTuple_GET_SIZE(t);
    std::vector<I64> out(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = plain(PyTuple_GET_ITEM(t, i));
    return out;
}

// ``",".join(map(str, values[:n]))``, as auditing.base._fmt writes plain ints.
py::object joined(const std::vector<I64>& values, std::size_t n) {
    std::string text;
    char buf[24];
    for (std::size_t i = 0; i < n && i < values.size(); ++i) {
        if (i) text.push_back(',');
        text.append(buf, std::to_chars(buf, buf + sizeof buf, values[i]).ptr);
    }
    return py::reinterpret_steal<py::object>(
        PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size())));
}

py::object number(I64 x) { return py::reinterpret_steal<py::object>(PyLong_FromLongLong(x)); }

void put(core::HandRow& row, PyObject* key, PyObject* value) { row.put(key, value); }

// What the game holds constant: the rules' part (auditing/game.py::HandsContext, which
// the games of one lobby and hour share) and the game's own (its file, log id, owari).
struct Ctx {
    PyObject* win_row;
    bool core_win_row;  // _core.win_row itself: called without its Python call
    PyObject* core_rules;
    PyObject* riichi_type;
    PyObject* win_type;
    PyObject* draw_type;
    PyObject* passed_over;  // a tuple of classes
    PyObject* results;      // (win_type, draw_type)
    PyObject* file;
    PyObject* log_id;
    PyObject* abortive_draws;  // the rules' (a container of str)
    PyObject* abortive_kinds;  // model.events.ABORTIVE_KINDS
    I64 players;
    bool stepless;
    I64 riichi_cost, noten_pool;
    core::FlowRules flow;
    PyObject* labels;  // auditing.hands._LABELS: a hand's label by its round and honba
    PyObject* final;   // scoring.final_core.FinalRule, None: the end is Python's to check
    PyObject* owari;   // the game's final line (model.events.Owari), None: Python's to check
};

bool truth(PyObject* v) {
    const int t = PyObject_IsTrue(v);
    if (t < 0) declined();
    return t != 0;
}

// The fields of auditing/game.py::HandsContext the core reads, by name (Ctx's order).
enum CtxField {
    X_WIN_ROW, X_CORE_RULES, X_RIICHI_TYPE, X_WIN_TYPE, X_DRAW_TYPE, X_PASSED_OVER, X_RESULTS,
    X_ABORTIVE_DRAWS, X_ABORTIVE_KINDS, X_PLAYERS, X_STEPLESS, X_RIICHI_COST,
    X_NOTEN_POOL, X_MAX_HANDS, X_RENCHAN_ON_WIN, X_RENCHAN_ON_TENPAI, X_BUST, X_POINTS_TO_END,
    X_WEST_EXTENSION, X_STOPS_ALL_LAST, X_STOPS_ON_TENPAI, X_EXTENSION_WINDS, X_HANCHAN,
    X_LABELS, X_FINAL, X_COUNT
};
constexpr const char* kCtxNames[X_COUNT] = {
    "win_row", "core_rules", "riichi_type", "win_type", "draw_type", "passed_over", "results",
    "abortive_draws", "abortive_kinds", "players", "stepless_reach",
    "riichi_cost", "noten_pool", "max_hands", "renchan_on_win", "renchan_on_tenpai", "bust",
    "points_to_end", "west_extension", "dealer_stops_all_last", "dealer_stops_on_tenpai",
    "extension_winds", "hanchan", "labels", "final"};
core::NamedSlots<X_COUNT> ctx_slots;

Ctx read_ctx(PyObject* t) {
    PyObject* v[X_COUNT];
    core::named_values(t, ctx_slots, kCtxNames, "audit_hands: ctx", v);
    auto at = [&v](int i) { return v[i]; };
    Ctx c;
    c.win_row = at(X_WIN_ROW);
    c.core_win_row = core::is_core_win_row(c.win_row);
    c.core_rules = at(X_CORE_RULES);
    c.riichi_type = at(X_RIICHI_TYPE);
    c.win_type = at(X_WIN_TYPE);
    c.draw_type = at(X_DRAW_TYPE);
    c.passed_over = at(X_PASSED_OVER);
    c.results = at(X_RESULTS);
    c.abortive_draws = at(X_ABORTIVE_DRAWS);
    c.abortive_kinds = at(X_ABORTIVE_KINDS);
    c.players = plain(at(X_PLAYERS));
    c.stepless = truth(at(X_STEPLESS));
    c.riichi_cost = plain(at(X_RIICHI_COST));
    c.noten_pool = plain(at(X_NOTEN_POOL));
    core::FlowRules& f = c.flow;
    f.players = c.players;
    f.max_hands = plain(at(X_MAX_HANDS));
    f.renchan_on_win = truth(at(X_RENCHAN_ON_WIN));
    f.renchan_on_tenpai = truth(at(X_RENCHAN_ON_TENPAI));
    f.bust = truth(at(X_BUST));
    f.points_to_end = plain(at(X_POINTS_TO_END));
    f.west_extension = truth(at(X_WEST_EXTENSION));
    f.stops_all_last = truth(at(X_STOPS_ALL_LAST));
    f.stops_on_tenpai = truth(at(X_STOPS_ON_TENPAI));
    f.extension_winds = plain(at(X_EXTENSION_WINDS));
    f.hanchan = truth(at(X_HANCHAN));
    c.labels = at(X_LABELS);
    c.final = at(X_FINAL);
    if (!PyDict_CheckExact(c.labels)) declined();
    if (c.players != 3 && c.players != 4) declined();
    if (!PyTuple_CheckExact(c.passed_over) || !PyTuple_CheckExact(c.results)) declined();
    return c;
}

// Where a hand starts (as computed) and how it ended.
struct State {
    I64 round_index, honba, sticks, dealer;
};

struct End {
    State at{};
    I64 index = 0;  // the hand's
    std::vector<int> winners;
    py::object draw_kind = py::none();
    py::object dealer_tenpai = py::none();
    py::object tenpai = py::reinterpret_steal<py::object>(PyTuple_New(0));
    I64 sticks_after = 0, riichi = 0;
    std::vector<I64> logged;
    bool dealer_won = false;
};

// auditing/hands.py::_check_ba: the result's honba and sticks as computed.
void check_ba(PyObject* ev, I64 honba, I64 sticks) {
    const Names& nm = names();
    py::object h = attr(ev, nm.honba), s = attr(ev, nm.sticks);
    if (h.ptr() != Py_None && plain(h.ptr()) != honba) declined();
    if (s.ptr() != Py_None && plain(s.ptr()) != sticks) declined();
}

// scoring/noten.py::noten_pool_deltas.
std::vector<I64> noten(const std::vector<bool>& flags, I64 players, I64 total) {
    I64 k = 0;
    for (bool f : flags) k += f;
    std::vector<I64> deltas(static_cast<std::size_t>(players), 0);
    if (k == 0 || k == players || total < 0) {
        if (total < 0 && k != 0 && k != players) declined();  // Python's floor division
        return deltas;
    }
    const I64 gain = total / k, loss = total / (players - k);
    for (I64 s = 0; s < players; ++s) deltas[static_cast<std::size_t>(s)] = flags[static_cast<std::size_t>(s)] ? gain : -loss;
    return deltas;
}

// One result's draw part (auditing/hands.py::_audit_draw): its cells, its payments.
std::vector<I64> audit_draw(const Ctx& c, PyObject* ev, PyObject* rr, core::HandRow& row,
                            PyObject* hand_scores, I64 dealer, End* end) {
    const Names& nm = names();
    const auto players = static_cast<std::size_t>(c.players);
    py::object kind = attr(ev, nm.kind);
    if (!PyUnicode_CheckExact(kind.ptr())) declined();
    const std::vector<I64> rec = ints(attr(ev, nm.deltas).ptr());
    put(row, nm.result, kind.ptr());
    put(row, nm.rec_deltas, joined(rec, players).ptr());
    py::object dctx = attr(rr, nm.draw);
    std::vector<I64> computed;
    const int exhaustive = PyUnicode_Compare(kind.ptr(), nm.exhaustive);
    if (exhaustive == 0 || PyUnicode_Compare(kind.ptr(), nm.nm) == 0) {
        if (dctx.ptr() == Py_None || exhaustive != 0) declined();  // no context; nagashi
        py::object tenpai = attr(dctx.ptr(), nm.tenpai);
        if (!PyTuple_CheckExact(tenpai.ptr()) || PyTuple_GET_SIZE(tenpai.ptr()) < c.players ||
            dealer < 0 || dealer >= PyTuple_GET_SIZE(tenpai.ptr()))
            declined();
        end->dealer_tenpai = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(tenpai.ptr(), dealer));
        std::vector<I64> shown(players);
        std::vector<bool> flags(players);
        for (std::size_t s = 0; s < players; ++s) {
            PyObject* t = PyTuple_GET_ITEM(tenpai.ptr(), static_cast<Py_ssize_t>(s));
            shown[s] = t == Py_True ? 1 : t == Py_False ? 0 : plain(t);
            flags[s] = shown[s] != 0;
        }
        put(row, nm.tenpai, joined(shown, players).ptr());
        py::object nagashi = attr(dctx.ptr(), nm.nagashi);
        if (!PyTuple_CheckExact(nagashi.ptr())) declined();
        const Py_ssize_t n_nagashi = PyTuple_GET_SIZE(nagashi.ptr());
        for (Py_ssize_t s = 0; s < n_nagashi && s < c.players; ++s)
            if (truth(PyTuple_GET_ITEM(nagashi.ptr(), s))) declined();
        computed = noten(flags, c.players, c.noten_pool);
    } else {
        if (!PyTuple_CheckExact(hand_scores)) declined();
        computed.assign(static_cast<std::size_t>(PyTuple_GET_SIZE(hand_scores)), 0);
        if (attr(rr, nm.abort_ok).ptr() == Py_False) declined();
        const int allowed = PySequence_Contains(c.abortive_draws, kind.ptr());
        if (allowed != 1) declined();
        end->dealer_tenpai = py::none();
    }
    if (computed.size() < players) declined();
    put(row, nm.comp_deltas, joined(computed, players).ptr());
    if (!rec.empty()) {  // _compare_deltas
        if (rec.size() < players) declined();
        for (std::size_t s = 0; s < players; ++s)
            if (rec[s] != computed[s]) declined();
    }
    if (dctx.ptr() != Py_None) {
        PyObject* t = PySequence_Tuple(attr(dctx.ptr(), nm.tenpai).ptr());
        if (!t) declined();
        end->tenpai = py::reinterpret_steal<py::object>(t);
    }
    end->draw_kind = kind;
    return computed;
}

// ``hand.label``, remembered in ``c.labels`` by the hand's recorded round and honba as
// auditing/hands.py::_audit_hand remembers it (the label is a Python property).
py::object hand_label(const Ctx& c, PyObject* hand) {
    const Names& nm = names();
    py::object round = attr(hand, nm.round_index), honba = attr(hand, nm.honba);
    py::object key = py::reinterpret_steal<py::object>(PyTuple_Pack(2, round.ptr(), honba.ptr()));
    if (!key) throw py::error_already_set();
    PyObject* found = PyDict_GetItemWithError(c.labels, key.ptr());
    if (found) return py::reinterpret_borrow<py::object>(found);
    if (PyErr_Occurred()) declined();
    py::object label = attr(hand, nm.label);
    if (PyDict_GET_SIZE(c.labels) >= 1024) PyDict_Clear(c.labels);
    if (PyDict_SetItem(c.labels, key.ptr(), label.ptr()) < 0) throw py::error_already_set();
    return label;
}

// One hand (auditing/hands.py::_audit_hand) from ``at``, ``scores`` its start scores
// (the scores after it on return); its rows given to ``rows``, its wins' values
// set in ``values`` by id.
void audit_hand(const Ctx& c, PyObject* hand, PyObject* hr, const State& at,
                std::vector<I64>& scores, core::HandRowsOut& rows, PyObject* values, End* end) {
    const Names& nm = names();
    const auto players = static_cast<std::size_t>(c.players);
    if (scores.size() < players) declined();
    py::object index = attr(hand, nm.index);
    py::object label = hand_label(c, hand);
    py::object hand_scores = attr(hand, nm.scores);
    end->logged = ints(hand_scores.ptr());
    std::vector<I64>& logged = end->logged;
    py::object events = attr(hand, nm.events), replayed = attr(hr, nm.results);
    // a tuple or the lazy build's HandEvents, its draws and discards read without objects
    const core::EventSeq evs(events.ptr());
    if (!evs.ok() || !PyTuple_CheckExact(replayed.ptr())) declined();
    const Py_ssize_t n_replayed = PyTuple_GET_SIZE(replayed.ptr());
    I64 sticks = at.sticks;
    I64 riichi = 0;
    Py_ssize_t k = 0;
    bool first_done = false;
    py::object round_o = number(at.round_index), honba_o = number(at.honba),
               dealer_o = number(at.dealer), zero = number(0);
    const Py_ssize_t n = evs.size();
    PyObject* const* passed_over = &PyTuple_GET_ITEM(c.passed_over, 0);
    const Py_ssize_t n_passed = PyTuple_GET_SIZE(c.passed_over);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* type = reinterpret_cast<PyObject*>(evs.type(i));
        // nine events in ten are draws and discards, the first classes passed over
        Py_ssize_t j = 0;
        while (j < n_passed && passed_over[j] != type) ++j;
        if (j < n_passed) continue;
        PyObject* ev = evs.object(i);
        if (ev == nullptr) declined();  // a lazy draw or discard not passed over: Python's
        if (type == c.riichi_type) {
            const I64 seat = plain(attr(ev, nm.seat).ptr());
            if (seat < 0 || seat >= c.players || static_cast<std::size_t>(seat) >= logged.size())
                declined();
            scores[static_cast<std::size_t>(seat)] -= c.riichi_cost;
            logged[static_cast<std::size_t>(seat)] -= c.riichi_cost;
            ++sticks;
            ++riichi;
            py::object after = attr(ev, nm.scores);
            if (after.ptr() != Py_None) {
                const std::vector<I64> shown = ints(after.ptr());
                if (shown.size() < players) declined();
                for (std::size_t s = 0; s < players; ++s)
                    if (shown[s] != scores[s]) declined();
            }
            continue;
        }
        const bool is_win = type == c.win_type;
        if (!is_win && type != c.draw_type) {
            const int result = PyObject_IsInstance(ev, c.results);
            if (result != 0) declined();  // a subclass of a result (or an error): Python's
            continue;
        }
        // the replay's result in the hand's order, else Python's
        if (k >= n_replayed) declined();
        PyObject* rr = PyTuple_GET_ITEM(replayed.ptr(), k);
        if (attr(rr, nm.result).ptr() != ev) declined();
        ++k;
        const std::vector<I64> deltas = ints(attr(ev, nm.deltas).ptr());
        for (std::size_t s = 0; s < deltas.size() && s < logged.size(); ++s) logged[s] += deltas[s];
        core::HandRow r;  // a dict, or the cells of the part's table (hand_row.hpp)
        rows.begin(r);
        put(r, nm.file, c.file);
        put(r, nm.log_id, c.log_id);
        put(r, nm.hand_index, index.ptr());
        put(r, nm.hand, label.ptr());
        put(r, nm.round_index, round_o.ptr());
        put(r, nm.honba, honba_o.ptr());
        put(r, nm.sticks, first_done ? zero.ptr() : number(sticks).ptr());
        put(r, nm.dealer, dealer_o.ptr());
        put(r, nm.seq, attr(ev, nm.seq).ptr());
        py::object before = attr(ev, nm.scores_before);
        if (!PyTuple_CheckExact(before.ptr())) declined();
        if (PyTuple_GET_SIZE(before.ptr()) != 0) {
            const std::vector<I64> b = ints(before.ptr());
            if (b.size() < players) declined();
            for (std::size_t s = 0; s < players; ++s)
                if (b[s] != scores[s]) declined();
        }
        std::vector<I64> computed;
        if (is_win) {
            py::object ctx = attr(rr, nm.win);
            if (ctx.ptr() == Py_None || truth(attr(rr, nm.pao).ptr())) declined();
            py::object held;
            if (c.core_win_row) {
                held = core::win_row_into(r, ev, ctx.ptr(), c.core_rules, at.dealer, c.players,
                                          at.honba, sticks, !first_done);
            } else {  // another win_row (a test's): its call, on the dict
                py::object sticks_o = number(sticks), players_o = number(c.players);
                PyObject* args[9] = {r.dict, ev, ctx.ptr(), c.core_rules, dealer_o.ptr(),
                                     players_o.ptr(), honba_o.ptr(), sticks_o.ptr(),
                                     first_done ? Py_False : Py_True};
                held = core::own(PyObject_Vectorcall(c.win_row, args, 9, nullptr));
            }
            PyObject* got = held.ptr();
            if (got == Py_None) declined();
            if (!PyTuple_CheckExact(got) || PyTuple_GET_SIZE(got) != 2) declined();
            computed = ints(PyTuple_GET_ITEM(got, 1));
            py::object id = py::reinterpret_steal<py::object>(PyLong_FromVoidPtr(ev));
            if (PyDict_SetItem(values, id.ptr(), PyTuple_GET_ITEM(got, 0)) < 0)
                throw py::error_already_set();
            // a double ron's later winner: the hand's honba, no sticks (hands.py)
            check_ba(ev, at.honba, first_done || c.stepless ? 0 : sticks);
            first_done = true;
            const I64 seat = plain(attr(ev, nm.seat).ptr());
            end->winners.push_back(static_cast<int>(seat));
        } else {
            computed = audit_draw(c, ev, rr, r, hand_scores.ptr(), at.dealer, end);
            check_ba(ev, at.honba, sticks);
        }
        if (computed.size() < players) declined();
        for (std::size_t s = 0; s < players; ++s) scores[s] += computed[s];
        put(r, nm.n_findings, zero.ptr());
        put(r, nm.status, nm.ok);
        rows.add(r);
    }
    end->at = at;
    end->index = plain(index.ptr());
    end->riichi = riichi;
    end->sticks_after = end->winners.empty() ? sticks : 0;
    end->dealer_won = false;
    for (int w : end->winners) end->dealer_won = end->dealer_won || w == at.dealer;
}

// How the hand that ended in ``e`` ended, as scoring/flow.py reads it.
core::FlowEnd flow_end(const Ctx& c, const End& e) {
    core::FlowEnd f;
    f.index = e.index;
    f.round_index = e.at.round_index;
    f.dealer = e.at.dealer;
    f.won = !e.winners.empty();
    f.dealer_won = e.dealer_won;
    if (e.draw_kind.ptr() != Py_None) {
        const int abortive = PySequence_Contains(c.abortive_kinds, e.draw_kind.ptr());
        if (abortive < 0) declined();
        f.abortive = abortive == 1;
    }
    f.dealer_tenpai = truth(e.dealer_tenpai.ptr());
    return f;
}

// scoring/flow.py::next_hand_from of the hand that ended in ``e`` (the scores after it:
// ``scores``), as auditing/base.py::_expected_next asks it; the game's end declines.
State next_state(const Ctx& c, const End& e, const std::vector<I64>& scores) {
    const core::FlowEnd f = flow_end(c, e);
    if (core::game_over_after(c.flow, f, scores)) declined();
    const State& at = e.at;
    const bool won = f.won;
    const bool keep = core::dealer_keeps(c.flow, f);
    State next = at;
    if (won) {
        next.honba = e.dealer_won ? at.honba + 1 : 0;
        next.sticks = 0;
    } else {
        next.honba = at.honba + 1;
        next.sticks = e.sticks_after;
    }
    if (!keep) {
        I64 nxt = at.round_index + 1;  // flow.next_round_index
        if (c.players == 3 && nxt % 4 == 3) ++nxt;
        next.round_index = nxt;
        next.dealer = (at.dealer + 1) % c.players;
    }
    return next;
}

// auditing/chain.py::_check_game_end finds nothing to report after the last hand (it
// ended in ``e``, ``scores`` after it): the rules end the game there and the final line
// agrees with the log's one reading.  False where the context leaves the end to Python
// (no final line, parse errors, several readings) and for anything the core declines.
bool settled(const Ctx& c, const End& e, const std::vector<I64>& scores) {
    if (c.final == Py_None || c.owari == Py_None) return false;
    try {
        return core::game_over_after(c.flow, flow_end(c, e), scores) &&
               core::final_line_agrees(c.final, c.owari, scores, e.sticks_after);
    } catch (const core::Declined&) {
        PyErr_Clear();
        return false;
    }
}

// The game's walk (audit_hands' arguments in ``args``): its rows given to ``out``.
py::object audit_game(const Ctx& c, PyObject* const* args, core::HandRowsOut& out) {
    const Names& nm = names();
    PyObject* played = args[0];
    if (!PyList_CheckExact(played) || PyList_GET_SIZE(played) == 0) declined();
    const auto players = static_cast<std::size_t>(c.players);
    PyObject* start = args[1];
    State at{plain(attr(start, nm.round_index).ptr()), plain(attr(start, nm.honba).ptr()),
             plain(attr(start, nm.sticks).ptr()), plain(attr(start, nm.dealer).ptr())};
    std::vector<I64> scores = ints(args[2]);
    if (scores.size() < players) declined();
    py::object values = core::own(PyDict_New());
    End end;
    const Py_ssize_t n = PyList_GET_SIZE(played);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* pair = PyList_GET_ITEM(played, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) declined();
        PyObject* hand = PyTuple_GET_ITEM(pair, 0);
        if (i > 0) {
            // chain._check_transition: the start scores, then the state
            const std::vector<I64> recorded = ints(attr(hand, nm.scores).ptr());
            if (recorded.size() < players) declined();
            for (std::size_t s = 0; s < players; ++s)
                if (recorded[s] != scores[s]) declined();
            at = next_state(c, end, scores);
            if (plain(attr(hand, nm.round_index).ptr()) != at.round_index ||
                plain(attr(hand, nm.honba).ptr()) != at.honba ||
                plain(attr(hand, nm.sticks).ptr()) != at.sticks ||
                plain(attr(hand, nm.dealer).ptr()) != at.dealer)
                declined();
            end = End();
        }
        audit_hand(c, hand, PyTuple_GET_ITEM(pair, 1), at, scores, out, values.ptr(), &end);
    }
    py::tuple chain(scores.size());
    for (std::size_t s = 0; s < scores.size(); ++s) chain[s] = number(scores[s]);
    py::tuple winners(end.winners.size());
    for (std::size_t s = 0; s < end.winners.size(); ++s) winners[s] = number(end.winners[s]);
    py::tuple log_end(end.logged.size());
    for (std::size_t s = 0; s < end.logged.size(); ++s) log_end[s] = number(end.logged[s]);
    // how the game's last hand ended, keyed as auditing/base.py::_Outcome
    py::dict outcome;
    outcome[nm.winners] = winners;
    outcome[nm.dealer_won] = py::bool_(end.dealer_won);
    outcome[nm.draw_kind] = end.draw_kind;
    outcome[nm.dealer_tenpai] = end.dealer_tenpai;
    outcome[nm.sticks] = number(end.sticks_after);
    outcome[nm.honba] = number(end.at.honba);
    outcome[nm.round_index] = number(end.at.round_index);
    outcome[nm.dealer] = number(end.at.dealer);
    outcome[nm.riichi] = number(end.riichi);
    outcome[nm.log_end] = log_end;
    outcome[nm.tenpai] = end.tenpai;
    const bool end_settled = settled(c, end, scores);
    return py::make_tuple(out.given(), values, chain, outcome, py::bool_(end_settled));
}

// audit_hands(played, start, chain, ctx, file, log_id, owari[, part_rows, table, source])
PyObject* audit_hands_py(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    return core::python_errors([&]() -> PyObject* {
        if (nargs != 7 && nargs != 10) throw py::type_error("audit_hands takes 7 or 10 arguments");
        Ctx c = read_ctx(args[3]);
        c.file = args[4];
        c.log_id = args[5];
        c.owari = args[6];
        const py::object rows = core::own(PyList_New(0));
        core::HandRowsOut out = core::hand_rows_out(args, nargs, c.core_win_row, rows.ptr());
        try {
            return audit_game(c, args, out).release().ptr();
        } catch (...) {  // declined or failed: no row of the game stays in the table
            out.rollback();
            throw;
        }
    });
}

}  // namespace

namespace replay_audit::core {

void def_auditor_hands(py::module_& m) {
    add_fastcall<&audit_hands_py>(m, "audit_hands",
        "audit_hands(played, start, chain, ctx, file, log_id, owari[, part_rows, table, file]):\n"
        "the hands rows of a game\n"
        "in which nothing is to be reported, from the first hand's computed start and scores\n"
        "(auditing/game.py::_GameAuditor.run is the reference): (rows, values by id, the\n"
        "scores after the last hand, how it ended as a dict keyed as auditing.base._Outcome,\n"
        "whether the game's end is settled); None for anything else.  ctx:\n"
        "auditing.game.HandsContext, read by field name.  With a part's table: the rows\n"
        "written into it as cells, their number for the rows (hand_row.hpp).");
}

}  // namespace replay_audit::core
