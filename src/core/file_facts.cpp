// A game's three fact tables in one pass over its hands (facts.hpp: _core.file_facts):
// the hand facts (facts_rows.cpp's rows, each hand's label written once), the score
// history (score_rows.cpp's rows) and the per-seat game facts
// (replay_audit.stats.game_facts.game_facts: places, final scores, dealer streaks, rate
// changes), which Python built with a dict display per seat and a second and third walk
// over the hands.  Python's three functions stay the reference:
// tests/test_core_file_facts.py holds them equal over the shared corpus.
#include <algorithm>
#include <exception>
#include <memory>

#include "facts.hpp"
#include "facts_scan.hpp"
#include "hand_label.hpp"
#include "py_errors.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace replay_audit::core {
namespace facts_detail {

namespace {

// stats.game_facts.game_facts' columns, in its order (checked against Python's keys).
enum GameCol {
    gFile, gLogId, gDate, gGameType, gPlatform, gRules, gPlayers, gHanchan, gHands,
    gComplete, gSeat, gName, gFinalScore, gFinalPoints, gPlace, gBust, gLobby,
    gDealerStreak, gRate, gRateChange, gCols
};

const char* const kGameColNames[gCols] = {
    "file", "log_id", "date", "game_type", "platform", "rules", "players", "hanchan",
    "hands", "complete", "seat", "name", "final_score", "final_points", "place", "bust",
    "lobby", "dealer_streak", "rate", "rate_change"};

// The per-game context: stats.file_facts' ``game_ctx`` tuple.
enum GameCtx {
    cScoreKeys, cGameRow, cGameKeys, cOwariScores, cOwariPoints, cRates, cAverage,
    cPlaceScores, cRateFactor, cFinal, cGameCtxSize
};

// The HandLog slots read here (the rows' own are facts_rows.cpp's).
enum HandSlot { hIndex, hRoundIndex, hDealer, hScores, hSlots };
const char* const kHandSlotNames[hSlots] = {"index", "round_index", "dealer", "scores"};

// A plain int or float as a double, as Python's arithmetic converts it; Declined else.
double as_double(PyObject* v) {
    if (PyFloat_CheckExact(v)) return PyFloat_AS_DOUBLE(v);
    if (!PyLong_CheckExact(v)) throw Declined{};
    const double x = PyLong_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw Declined{};
    }
    return x;
}

// ``row``'s column ``col`` (its key ``keys[col]``) set to ``value``, borrowed (store()).
inline void put(PyObject* row, PyObject* const* keys, int col, PyObject* value) {
    store(row, keys[col], value);
}

// As put, ``value`` a new reference.
inline void put_new(PyObject* row, PyObject* const* keys, int col, PyObject* value) {
    if (value == nullptr) throw py::error_already_set();
    const py::object owner = py::reinterpret_steal<py::object>(value);
    store(row, keys[col], value);
}

// A copy of ``row`` appended to ``out`` (borrowed: ``out`` holds it).
PyObject* append_copy(PyObject* out, PyObject* row) {
    PyObject* copy = PyDict_Copy(row);
    if (copy == nullptr) throw py::error_already_set();
    const int rc = PyList_Append(out, copy);
    Py_DECREF(copy);
    if (rc < 0) throw py::error_already_set();
    return copy;
}

// The keys tuple of the game facts, else a TypeError.  The last tuple checked is kept.
bool check_game_keys(PyObject* keys) {
    static PyObject* checked = nullptr;
    if (keys == checked) return true;
    if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != gCols) {
        PyErr_SetString(PyExc_TypeError, "file_facts: the game keys must be its 20 columns");
        return false;
    }
    for (int c = 0; c < gCols; ++c) {
        PyObject* k = PyTuple_GET_ITEM(keys, c);
        if (!PyUnicode_CheckExact(k) ||
            PyUnicode_CompareWithASCIIString(k, kGameColNames[c]) != 0) {
            PyErr_Format(PyExc_TypeError, "file_facts: game column %d must be '%s'", c,
                         kGameColNames[c]);
            return false;
        }
    }
    Py_INCREF(keys);
    Py_XDECREF(checked);
    checked = keys;
    return true;
}

// Per seat, a score-history row with what never changes in the game written in (file,
// log id, seat, name): each row is a copy of its seat's, with the hand and score in.
struct ScoreSeats {
    py::object rows[kMaxSeats];

    ScoreSeats(PyObject* const* keys, PyObject* file, PyObject* log_id, PyObject* names,
               Py_ssize_t n) {
        for (Py_ssize_t s = 0; s < n; ++s) {
            PyObject* row = PyDict_New();
            if (row == nullptr) throw py::error_already_set();
            rows[s] = py::reinterpret_steal<py::object>(row);
            for (int c = 0; c < sCols; ++c) {
                PyObject* v = c == sFile    ? file
                              : c == sLogId ? log_id
                              : c == sName  ? PyTuple_GET_ITEM(names, s)
                                            : Py_None;
                put(row, keys, c, v);
            }
            put_new(row, keys, sSeat, PyLong_FromSsize_t(s));
        }
    }

    // The rows of one hand (or of the final scores) appended to ``out``.
    void append(PyObject* out, PyObject* const* keys, Py_ssize_t n, PyObject* index,
                PyObject* label, PyObject* scores) const {
        const Py_ssize_t seats = std::min(n, PyTuple_GET_SIZE(scores));
        for (Py_ssize_t s = 0; s < seats; ++s) {
            PyObject* row = append_copy(out, rows[s].ptr());
            put(row, keys, sHandIndex, index);
            put(row, keys, sLabel, label);
            put(row, keys, sScore, PyTuple_GET_ITEM(scores, s));
        }
    }
};

// The score history going straight into a part's table (part_rows.hpp), cell by cell: each
// row its seat's ScoreSeats row's values with the hand and score set, as append()'s copy.
struct ScoreCells {
    TableRows* table;
    PyObject* source;
    PyObject* keys;  // the columns (a tuple), the table's key sequence at the first row
    std::size_t seq = kNoSequence;
    PyObject* cells[kMaxSeats][sCols] = {};  // borrowed from the ScoreSeats rows
    std::size_t rows = 0;

    ScoreCells(TableRows* t, PyObject* src, PyObject* score_keys, const ScoreSeats& seats,
               Py_ssize_t n)
        : table(t), source(src), keys(score_keys) {
        for (Py_ssize_t s = 0; s < n; ++s) {
            PyObject* const* k = &PyTuple_GET_ITEM(keys, 0);
            for (int c = 0; c < sCols; ++c) {
                PyObject* v = PyDict_GetItemWithError(seats.rows[s].ptr(), k[c]);
                if (v == nullptr) throw py::error_already_set();  // (set in order: never)
                cells[s][c] = v;
            }
        }
    }

    void append(Py_ssize_t n, PyObject* index, PyObject* label, PyObject* scores) {
        const Py_ssize_t seats = std::min(n, PyTuple_GET_SIZE(scores));
        for (Py_ssize_t s = 0; s < seats; ++s) {
            if (seq == kNoSequence) {  // the first row: as a dict's would, its keys now
                seq = table_sequence(*table, keys);
                if (seq == kNoSequence) throw TableDeclined{};
            }
            PyObject* row[sCols];
            std::copy(cells[s], cells[s] + sCols, row);
            row[sHandIndex] = index;
            row[sLabel] = label;
            row[sScore] = PyTuple_GET_ITEM(scores, s);
            table_add_cells(*table, seq, row, source);
            ++rows;
        }
    }
};

// The part's tables a game's hand facts and score history go straight into (file_facts'
// sink argument), and the file they are of.
struct FactsSink {
    TableRows* hands = nullptr;
    TableRows* scores = nullptr;
    PyObject* source = nullptr;
};

// Places 1..n by final score, equal scores to the earlier seat (game_facts.placements).
void placements(const long* scores, long n, long* places) {
    for (long s = 0; s < n; ++s) {
        long place = 1;
        for (long t = 0; t < n; ++t)
            if (scores[t] > scores[s] || (t < s && scores[t] == scores[s])) ++place;
        places[s] = place;
    }
}

// The game facts' rows, one per seat, after the hands' walk gave the dealer streaks.
PyObject* game_rows_of(long n, PyObject* names, PyObject* const* g, const long* streaks) {
    PyObject* template_row = g[cGameRow];
    PyObject* const* keys = &PyTuple_GET_ITEM(g[cGameKeys], 0);
    PyObject* owari_scores = g[cOwariScores];
    PyObject* owari_points = g[cOwariPoints];
    PyObject* rates = g[cRates];
    const bool complete = owari_scores != Py_None;
    const bool rated = g[cAverage] != Py_None;
    if (!PyDict_CheckExact(template_row) || !PyTuple_CheckExact(rates)) throw Declined{};
    long scores[kMaxSeats] = {};
    long places[kMaxSeats] = {};
    if (complete) {
        if (!PyTuple_CheckExact(owari_scores) || !PyTuple_CheckExact(owari_points) ||
            PyTuple_GET_SIZE(owari_scores) < n || PyTuple_GET_SIZE(owari_points) < n)
            throw Declined{};
        for (long s = 0; s < n; ++s) scores[s] = plain_long(PyTuple_GET_ITEM(owari_scores, s));
        placements(scores, n, places);
    }
    double average = 0, factor = 0;
    PyObject* place_scores = g[cPlaceScores];
    if (rated) {
        if (!complete || !PyTuple_CheckExact(place_scores) ||
            PyTuple_GET_SIZE(place_scores) < n || PyTuple_GET_SIZE(rates) < n)
            throw Declined{};
        average = as_double(g[cAverage]);
        factor = as_double(g[cRateFactor]);
    }
    py::list out;
    for (long s = 0; s < n; ++s) {
        PyObject* row = append_copy(out.ptr(), template_row);
        put_new(row, keys, gSeat, PyLong_FromLong(s));
        put(row, keys, gName, PyTuple_GET_ITEM(names, s));
        if (complete) {
            put(row, keys, gFinalScore, PyTuple_GET_ITEM(owari_scores, s));
            put_new(row, keys, gFinalPoints, PyNumber_Float(PyTuple_GET_ITEM(owari_points, s)));
            put_new(row, keys, gPlace, PyLong_FromLong(places[s]));
            put(row, keys, gBust, scores[s] < 0 ? Py_True : Py_False);
        }
        if (streaks[s] >= 0) put_new(row, keys, gDealerStreak, PyLong_FromLong(streaks[s]));
        if (s < PyTuple_GET_SIZE(rates)) put(row, keys, gRate, PyTuple_GET_ITEM(rates, s));
        if (rated) {
            // tenhou_rank.rate_change, the same operations in the same order
            const double score = as_double(PyTuple_GET_ITEM(place_scores, places[s] - 1));
            const double own = as_double(PyTuple_GET_ITEM(rates, s));
            put_new(row, keys, gRateChange,
                    PyFloat_FromDouble(factor * (score + (average - own) / 40.0)));
        }
    }
    return out.release().ptr();
}

// The three tables of the game, or Declined (then Python writes them all).  With ``sink``:
// ``(hand facts' rows, game facts, score history's rows)``, the two counted tables' rows
// written into the sink's tables (TableDeclined, or any error, with some of them maybe
// written: the caller rolls the tables back).
PyObject* facts_of(PyObject* hands, long n, PyObject* const* ctx, PyObject* fallback,
                   PyObject* const* g, const FactsSink* sink) {
    static NamedSlots<hSlots> hand_slots;
    static PyObject* final_label = PyUnicode_InternFromString("final");
    if (final_label == nullptr) throw py::error_already_set();
    PyObject* names = ctx[1];  // facts_rows.cpp's kNames
    PyObject* final_scores = g[cFinal];
    if (!PyTuple_CheckExact(names) || PyTuple_GET_SIZE(names) != n ||
        !PyTuple_CheckExact(final_scores))
        throw Declined{};
    PyObject* base = ctx[0];  // kBase: the hand facts' row, whose file and log id are the game's
    if (!PyDict_CheckExact(base)) throw Declined{};
    PyObject* file = PyDict_GetItemString(base, "file");
    PyObject* log_id = PyDict_GetItemString(base, "log_id");
    if (file == nullptr || log_id == nullptr) throw Declined{};
    PyObject* const* score_keys = &PyTuple_GET_ITEM(g[cScoreKeys], 0);
    const ScoreSeats score_seats(score_keys, file, log_id, names, n);

    SeatRows seats;  // the hand facts' rows per seat before any hand
    make_seat_rows(seats, n, ctx);
    py::list hand_rows, score_rows;
    FactsRowsOut hand_out;
    std::unique_ptr<ScoreCells> score_cells;
    if (sink != nullptr) {
        hand_out.table = sink->hands;
        hand_out.source = sink->source;
        if (!seat_cells(hand_out, seats, n, ctx)) throw Declined{};
        score_cells = std::make_unique<ScoreCells>(sink->scores, sink->source, g[cScoreKeys],
                                                   score_seats, n);
    } else {
        hand_out.list = hand_rows.ptr();
    }
    long streaks[kMaxSeats] = {-1, -1, -1, -1};  // per seat its most repeats as dealer
    bool in_run = false;  // a dealership started (its round is run_round)
    long run_round = 0, repeats = 0;
    const Py_ssize_t count = PyTuple_GET_SIZE(hands);
    for (Py_ssize_t i = 0; i < count; ++i) {
        PyObject* hand = PyTuple_GET_ITEM(hands, i);
        if (!hand_slots.of(Py_TYPE(hand), kHandSlotNames)) throw Declined{};
        PyObject* index = slot_or_decline(hand, hand_slots.at[hIndex]);
        const long round = plain_long(slot_or_decline(hand, hand_slots.at[hRoundIndex]));
        PyObject* scores = slot_or_decline(hand, hand_slots.at[hScores]);
        const long dealer = plain_long(slot_or_decline(hand, hand_slots.at[hDealer]));
        if (!PyTuple_CheckExact(scores)) throw Declined{};
        // game_facts.dealer_streaks: a hand of the same round repeats the dealership
        if (in_run && round == run_round) {
            ++repeats;
        } else {
            repeats = 0;
            run_round = round;
            in_run = true;
        }
        if (dealer >= 0 && dealer < n && repeats > streaks[dealer]) streaks[dealer] = repeats;
        PyObject* label = hand_label(hand);
        if (label == nullptr) throw py::error_already_set();
        const py::object label_owner = py::reinterpret_steal<py::object>(label);
        append_hand_rows(hand_out, hand, n, ctx, seats, fallback, label);
        if (score_cells) score_cells->append(n, index, label, scores);
        else score_seats.append(score_rows.ptr(), score_keys, n, index, label, scores);
    }
    if (PyTuple_GET_SIZE(final_scores) > 0) {
        const py::object final_index = py::reinterpret_steal<py::object>(PyLong_FromSsize_t(count));
        if (!final_index) throw py::error_already_set();
        if (score_cells) {
            score_cells->append(n, final_index.ptr(), final_label, final_scores);
        } else {
            score_seats.append(score_rows.ptr(), score_keys, n, final_index.ptr(), final_label,
                               final_scores);
        }
    }
    const py::object games = py::reinterpret_steal<py::object>(game_rows_of(n, names, g, streaks));
    if (score_cells) {
        return Py_BuildValue("(nOn)", static_cast<Py_ssize_t>(hand_out.rows), games.ptr(),
                             static_cast<Py_ssize_t>(score_cells->rows));
    }
    return PyTuple_Pack(3, hand_rows.ptr(), games.ptr(), score_rows.ptr());
}

}  // namespace

namespace {

// facts_of into the sink's tables, all or nothing: whatever stops it part-way (a table
// that declines a row, an error) rolls both tables back to where they were, then None
// (Python's dict rows are to go) or the error.
PyObject* facts_into(PyObject* hands, long n, PyObject* const* ctx, PyObject* fallback,
                     PyObject* const* g, const FactsSink& sink) {
    const TableMark hand_mark = table_mark(*sink.hands);
    const TableMark score_mark = table_mark(*sink.scores);
    const auto roll_back = [&] {
        table_truncate(*sink.hands, hand_mark);
        table_truncate(*sink.scores, score_mark);
    };
    try {
        return facts_of(hands, n, ctx, fallback, g, &sink);
    } catch (const TableDeclined&) {
        roll_back();
        Py_RETURN_NONE;
    } catch (...) {  // (Declined too: python_errors makes it None)
        roll_back();
        throw;
    }
}

// The sink argument: ``(part rows, hand facts' table, score history's table, source)``;
// false (None to return) when a table takes no cells (it declined rows before), a
// TypeError when the argument is not of that shape.
bool read_sink(PyObject* arg, FactsSink& sink) {
    if (!PyTuple_CheckExact(arg) || PyTuple_GET_SIZE(arg) != 4 ||
        !PyLong_CheckExact(PyTuple_GET_ITEM(arg, 1)) ||
        !PyLong_CheckExact(PyTuple_GET_ITEM(arg, 2)) ||
        !PyUnicode_CheckExact(PyTuple_GET_ITEM(arg, 3))) {
        throw py::type_error("file_facts: the sink must be (PartRows, table, table, source)");
    }
    const std::size_t hand_t = PyLong_AsSize_t(PyTuple_GET_ITEM(arg, 1));
    const std::size_t score_t = PyLong_AsSize_t(PyTuple_GET_ITEM(arg, 2));
    if (PyErr_Occurred()) throw py::error_already_set();
    if (hand_t == score_t) throw py::value_error("file_facts: the sink's tables are one");
    py::handle part(PyTuple_GET_ITEM(arg, 0));
    sink.hands = part_table(part, hand_t);
    sink.scores = part_table(part, score_t);
    sink.source = PyTuple_GET_ITEM(arg, 3);
    return sink.hands != nullptr && sink.scores != nullptr;
}

}  // namespace

}  // namespace facts_detail

PyObject* file_facts(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    using namespace facts_detail;  // not at file scope: it would reach the unity build's next files
    if (nargs != 5 && nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "file_facts takes 5 or 6 arguments");
        return nullptr;
    }
    if (!check_rows_ctx(args[2])) return nullptr;
    PyObject* gctx = args[4];
    if (!PyTuple_CheckExact(gctx) || PyTuple_GET_SIZE(gctx) != cGameCtxSize) {
        PyErr_SetString(PyExc_TypeError, "file_facts: the game context must be a 10-tuple");
        return nullptr;
    }
    PyObject* const* g = &PyTuple_GET_ITEM(gctx, 0);
    if (!PyTuple_CheckExact(g[cScoreKeys]) || PyTuple_GET_SIZE(g[cScoreKeys]) != sCols) {
        PyErr_SetString(PyExc_TypeError, "file_facts: the score keys must be a 7-tuple");
        return nullptr;
    }
    if (!check_game_keys(g[cGameKeys])) return nullptr;
    PyObject* hands = args[0];
    if (!PyTuple_CheckExact(hands) || !PyLong_CheckExact(args[1])) Py_RETURN_NONE;
    int overflow = 0;
    const long n = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow != 0 || n < 1 || n > kMaxSeats) Py_RETURN_NONE;
    PyObject* const* ctx = &PyTuple_GET_ITEM(args[2], 0);
    if (nargs == 6 && args[5] != Py_None) {
        return python_errors([&]() -> PyObject* {
            FactsSink sink;
            if (!read_sink(args[5], sink)) Py_RETURN_NONE;
            return facts_into(hands, n, ctx, args[3], g, sink);
        });
    }
    return python_errors(
        [&]() -> PyObject* { return facts_of(hands, n, ctx, args[3], g, nullptr); });
}

}  // namespace replay_audit::core
