// The statistics' hand-facts rows (facts.hpp): what replay_audit.stats.facts'
// ``_facts_for_hand`` writes for one hand, built here from the core's scan
// (facts_scan.hpp), so that Python no longer unpacks a tuple per seat and stores the
// columns one by one.  Each row is a copy of its seat's row (make_seat_rows: every column
// at its default but the seat's, in order: dict copies keep the order) with what differs
// written in (facts_scan.hpp's store: on 3.11 straight into the copy's entry).  Hands
// this file does not take (a nagashi mangan, a JSON log's draw or yaku names, a value of
// an odd type) are declined: Python's path, the reference, answers them.
#include <cstring>
#include <exception>

#include "facts.hpp"
#include "facts_scan.hpp"
#include "hand_events.hpp"
#include "hand_label.hpp"
#include "py_errors.hpp"
#include "slots.hpp"

namespace py = pybind11;

namespace replay_audit::core {
namespace facts_detail {

namespace {

// stats.facts._ROW's columns, in its order (checked against the keys Python passes).
enum FactsCol {
    fFile, fLogId, fGameType, fHandIndex, fLabel, fSeat, fName, fDealer, fResult,
    fRiichiDeclared, fRiichiAccepted, fRiichiTurn, fRiichiOrder, fRiichiWaits, fChased,
    fCalled, fClosedKan, fKita,
    fWon, fWonTsumo, fWonRon, fWinHandValue, fWinPayment, fWinTurn, fIppatsu, fUra,
    fDoubleRiichi, fYakuman,
    fDealtIn, fDealInTo, fDealInPayment, fDealInToRiichi, fDealInToOpen, fDealInToDama,
    fPaoPaid, fLostToTsumo,
    fExhaustiveDraw, fTenpaiAtDraw, fAbortive, fNagashi,
    fDelta, fRiichiStick, fDealt, fRiichiWin, fOpenWin, fDamaWin, fNet, fCols
};

const char* const kFactsColNames[fCols] = {
    "file", "log_id", "game_type", "hand_index", "label", "seat", "name", "dealer", "result",
    "riichi_declared", "riichi_accepted", "riichi_turn", "riichi_order", "riichi_waits",
    "chased", "called", "closed_kan", "kita",
    "won", "won_tsumo", "won_ron", "win_hand_value", "win_payment", "win_turn", "ippatsu",
    "ura", "double_riichi", "yakuman",
    "dealt_in", "deal_in_to", "deal_in_payment", "deal_in_to_riichi", "deal_in_to_open",
    "deal_in_to_dama", "pao_paid", "lost_to_tsumo",
    "exhaustive_draw", "tenpai_at_draw", "abortive", "nagashi",
    "delta", "riichi_stick", "dealt", "riichi_win", "open_win", "dama_win", "net"};

// stats.facts' yaku ids.
constexpr long kYakuIppatsu = 2;
constexpr long kYakuDoubleRiichi = 21;
constexpr long kYakuUra = 53;

// The per-game context game_rows is given: stats.facts.hand_facts' ``ctx`` tuple.
enum Ctx { kBase, kNames, kCost, kClassesArg, kKindsArg, kKeys, kAbortiveKinds, kCtxSize };
static_assert(fCols == kFactsCols, "facts_scan.hpp's column count");
static_assert(kCtxSize == kRowsCtxSize, "facts_scan.hpp's context size");

// ``deltas``, an exact tuple of plain ints, into ``out``: its length (0: none).
Py_ssize_t read_deltas(PyObject* deltas, long* out, Py_ssize_t cap) {
    if (!PyTuple_CheckExact(deltas)) throw Declined{};
    const Py_ssize_t size = PyTuple_GET_SIZE(deltas);
    if (size > cap) throw Declined{};
    for (Py_ssize_t j = 0; j < size; ++j) out[j] = plain_long(PyTuple_GET_ITEM(deltas, j));
    return size;
}

constexpr Py_ssize_t kMaxDeltas = 8;

// One seat's row while the hand is read: what differs from the row's defaults.
struct Row {
    bool won = false, won_tsumo = false, won_ron = false;
    bool has_value = false, has_payment = false;
    long value = 0, payment = 0;
    bool ippatsu = false, ura = false, double_riichi = false, yakuman = false;
    bool win_kind = false, riichi_win = false, open_win = false, dama_win = false;
    bool dealt_in = false;
    long deal_in_to = 0, deal_in_payment = 0, to_riichi = 0, to_open = 0, to_dama = 0;
    long pao_paid = 0, lost_to_tsumo = 0;
    int tenpai = -1;  // -1: None
    long delta = 0;
};

// Does the win list ippatsu, ura (worth at least one han) and double riichi?  As
// stats.facts._riichi_yaku, by Tenhou id (JSON yaku names are declined before).
void riichi_yaku(PyObject* yaku, Row& r) {
    if (!PyTuple_CheckExact(yaku)) throw Declined{};
    const Py_ssize_t size = PyTuple_GET_SIZE(yaku);
    for (Py_ssize_t j = 0; j < size; ++j) {
        PyObject* pair = PyTuple_GET_ITEM(yaku, j);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) throw Declined{};
        const long id = plain_long(PyTuple_GET_ITEM(pair, 0));
        const long han = plain_long(PyTuple_GET_ITEM(pair, 1));
        if (id == kYakuIppatsu) {
            r.ippatsu = true;
        } else if (id == kYakuUra) {
            if (han > 0) r.ura = true;
        } else if (id == kYakuDoubleRiichi) {
            r.double_riichi = true;
        }
    }
}

// The interned result strings (stats.facts' ``result`` values).
struct Results {
    PyObject* win = PyUnicode_InternFromString("win");
    PyObject* abortive = PyUnicode_InternFromString("abortive");
    PyObject* nagashi = PyUnicode_InternFromString("nagashi");
    PyObject* exhaustive = PyUnicode_InternFromString("exhaustive");
    PyObject* none = PyUnicode_InternFromString("none");
};

// The result strings, made once per process.
const Results& results() {
    static const Results made;
    return made;
}

// Writes into one row dict by column (values borrowed, put_new's new references); the keys
// are Python's (checked once per tuple).  Inlined: a call per store was a tenth of it.
struct Writer {
    PyObject* const* keys;

    __attribute__((always_inline)) void put(PyObject* row, int col, PyObject* value) const {
        store(row, keys[col], value);
    }
    void put_new(PyObject* row, int col, PyObject* value) const {  // a new reference
        if (value == nullptr) throw py::error_already_set();
        const py::object owner = py::reinterpret_steal<py::object>(value);
        store(row, keys[col], value);
    }
    void put_long(PyObject* row, int col, long value) const {
        put_new(row, col, PyLong_FromLong(value));
    }
    __attribute__((always_inline)) void put_true(PyObject* row, int col) const {
        put(row, col, Py_True);
    }
    void put_bool(PyObject* row, int col, bool value) const {
        put(row, col, value ? Py_True : Py_False);
    }
};

// The keys tuple: stats.facts._ROW's columns in order, else a TypeError (a programming
// error, not a hand to decline).  The last tuple checked is remembered.
bool check_keys(PyObject* keys) {
    static PyObject* checked = nullptr;
    if (keys == checked) return true;
    if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != fCols) {
        PyErr_SetString(PyExc_TypeError, "game_rows: the keys must be the 47 facts columns");
        return false;
    }
    for (int c = 0; c < fCols; ++c) {
        PyObject* k = PyTuple_GET_ITEM(keys, c);
        if (!PyUnicode_CheckExact(k) || PyUnicode_CompareWithASCIIString(k, kFactsColNames[c]) != 0) {
            PyErr_Format(PyExc_TypeError, "game_rows: column %d must be '%s'", c, kFactsColNames[c]);
            return false;
        }
    }
    Py_INCREF(keys);
    Py_XDECREF(checked);
    checked = keys;
    return true;
}

// What a hand's rows share, for write_seat.
struct SeatHand {
    PyObject* index;
    PyObject* label;
    PyObject* result;
    long dealer;
    PyObject* dealt;  // list: each dealt seat's tile ids as hex
    Py_ssize_t n_dealt;
    PyObject* cost_obj;
    long cost;
    long declared;
};

// A row written as a dict: a copy of its seat's row, the hand's values stored in it.
struct DictRow {
    PyObject* row;
    PyObject* const* keys;

    __attribute__((always_inline)) void put(int col, PyObject* value) const {
        store(row, keys[col], value);
    }
    void put_new(int col, PyObject* value) const {  // a new reference
        if (value == nullptr) throw py::error_already_set();
        const py::object owner = py::reinterpret_steal<py::object>(value);
        store(row, keys[col], value);
    }
    void put_long(int col, long value) const { put_new(col, PyLong_FromLong(value)); }
    __attribute__((always_inline)) void put_true(int col) const { put(col, Py_True); }
    void put_bool(int col, bool value) const { put(col, value ? Py_True : Py_False); }
    void done() const {}
};

// A row written as cells into a part's table (FactsRowsOut): its seat's template cells with
// the hand's values set, taken by the table (table_add_cells) as the dict would have been.
struct CellRow {
    FactsRowsOut& out;
    PyObject* cells[kFactsCols];
    PyObject* owned[kFactsCols];  // the new references among the cells
    int n_owned = 0;

    CellRow(FactsRowsOut& o, long s) : out(o) {
        std::memcpy(cells, o.cells[s], sizeof cells);
    }
    CellRow(const CellRow&) = delete;
    CellRow& operator=(const CellRow&) = delete;
    ~CellRow() {
        for (int i = 0; i < n_owned; ++i) Py_DECREF(owned[i]);
    }
    __attribute__((always_inline)) void put(int col, PyObject* value) { cells[col] = value; }
    void put_new(int col, PyObject* value) {  // a new reference
        if (value == nullptr) throw py::error_already_set();
        owned[n_owned++] = value;
        cells[col] = value;
    }
    void put_long(int col, long value) { put_new(col, PyLong_FromLong(value)); }
    __attribute__((always_inline)) void put_true(int col) { put(col, Py_True); }
    void put_bool(int col, bool value) { put(col, value ? Py_True : Py_False); }
    void done() {
        if (out.seq == kNoSequence) {  // the first row: as a dict's would, its keys now
            out.seq = table_sequence(*out.table, out.keys);
            if (out.seq == kNoSequence) throw TableDeclined{};
        }
        table_add_cells(*out.table, out.seq, cells, out.source);
        ++out.rows;
    }
};

// One seat's row of a hand: what differs from its seat's row written in, in one place for
// both ways a row goes (DictRow, CellRow).
template <class W>
void write_seat(W& w, long s, const SeatHand& h, const Row& r, const Facts& f) {
    w.put(fHandIndex, h.index);
    w.put(fLabel, h.label);
    const Results& names = results();
    if (h.result != names.win) w.put(fResult, h.result);
    if (h.result == names.exhaustive) w.put_true(fExhaustiveDraw);
    else if (h.result == names.abortive) w.put_true(fAbortive);
    if (s == h.dealer) w.put_true(fDealer);
    if (s < h.n_dealt) w.put(fDealt, PyList_GET_ITEM(h.dealt, s));
    long net = r.delta;
    if (f.any) {
        if (f.riichi_turn != 0) {
            w.put_true(fRiichiDeclared);
            w.put_long(fRiichiTurn, f.riichi_turn);
            w.put_long(fRiichiOrder, f.riichi_order);
            if (f.waits != nullptr) w.put(fRiichiWaits, f.waits);
            if (f.riichi_order < h.declared) w.put_true(fChased);
        }
        if (f.accepted) {
            w.put_true(fRiichiAccepted);
            w.put(fRiichiStick, h.cost_obj);
            net = r.delta - h.cost;
        }
        if (f.called) w.put_true(fCalled);
        if (f.ankan) w.put_true(fClosedKan);
        if (f.kita != 0) w.put_long(fKita, f.kita);
        if (f.win_turn != 0) w.put_long(fWinTurn, f.win_turn);
    }
    // one int object for the delta and the net when they are equal (no riichi stick)
    py::object delta;
    if (r.delta != 0) {
        delta = py::reinterpret_steal<py::object>(PyLong_FromLong(r.delta));
        if (!delta) throw py::error_already_set();
        w.put(fDelta, delta.ptr());
    }
    if (net != 0) {
        if (net == r.delta) w.put(fNet, delta.ptr());
        else w.put_long(fNet, net);
    }
    if (r.won) {
        w.put_true(fWon);
        if (r.won_tsumo) w.put_true(fWonTsumo);
        if (r.won_ron) w.put_true(fWonRon);
        if (r.has_value) w.put_long(fWinHandValue, r.value);
        if (r.has_payment) w.put_long(fWinPayment, r.payment);
        if (r.ippatsu) w.put_true(fIppatsu);
        if (r.ura) w.put_true(fUra);
        if (r.double_riichi) w.put_true(fDoubleRiichi);
        if (r.yakuman) w.put_true(fYakuman);
    }
    if (r.win_kind) {  // the three are False in the seat's row
        if (r.riichi_win) w.put_true(fRiichiWin);
        if (r.open_win) w.put_true(fOpenWin);
        if (r.dama_win) w.put_true(fDamaWin);
    }
    if (r.dealt_in) {
        w.put_true(fDealtIn);
        w.put_long(fDealInTo, r.deal_in_to);
        if (r.deal_in_payment != 0) w.put_long(fDealInPayment, r.deal_in_payment);
        if (r.to_riichi != 0) w.put_long(fDealInToRiichi, r.to_riichi);
        if (r.to_open != 0) w.put_long(fDealInToOpen, r.to_open);
        if (r.to_dama != 0) w.put_long(fDealInToDama, r.to_dama);
    }
    if (r.pao_paid != 0) w.put_long(fPaoPaid, r.pao_paid);
    if (r.lost_to_tsumo != 0) w.put_long(fLostToTsumo, r.lost_to_tsumo);
    if (r.tenpai >= 0) w.put_bool(fTenpaiAtDraw, r.tenpai == 1);
    w.done();  // (the cells borrow ``delta``: taken before it goes)
}

// The rows of one hand appended to ``out``; Declined (before any is appended)
// when Python is to write them.
void rows_of(FactsRowsOut& out, PyObject* events, PyObject* haipai, long n, PyObject* index,
             PyObject* label, long dealer, PyObject* const* ctx, const SeatRows& seats) {
    static NamedSlots<8> win_slots;
    static NamedSlots<3> draw_slots;
    static const char* const win_names[8] = {"seat",  "from_seat", "points",  "deltas",
                                             "yaku",  "yakuman",   "pao_seat", "yaku_names"};
    static const char* const draw_names[3] = {"kind", "deltas", "shown"};
    enum { wSeat, wFrom, wPoints, wDeltas, wYaku, wYakuman, wPao, wYakuNames };
    enum { dKind, dDeltas, dShown };

    PyObject* cost_obj = ctx[kCost];
    PyObject* abortive_kinds = ctx[kAbortiveKinds];
    const long cost = plain_long(cost_obj);
    PyObject* const* cls = &PyTuple_GET_ITEM(ctx[kClassesArg], 0);
    PyObject* const* keys = &PyTuple_GET_ITEM(ctx[kKeys], 0);

    Scan scan;
    scan_hand(scan, events, n, haipai, cls, &PyTuple_GET_ITEM(ctx[kKindsArg], 0));
    const Py_ssize_t nwins = PyList_GET_SIZE(scan.wins.ptr());
    const Py_ssize_t ndraws = PyList_GET_SIZE(scan.draws.ptr());
    if (nwins > 0 && !win_slots.of(reinterpret_cast<PyTypeObject*>(cls[kWin]), win_names))
        throw Declined{};
    if (ndraws > 0 &&
        !draw_slots.of(reinterpret_cast<PyTypeObject*>(cls[kRecDraw]), draw_names))
        throw Declined{};

    Row rows[kMaxSeats];
    long deltas[kMaxDeltas];

    // the draws first: the result, the deltas, and who was tenpai (the last draw's word)
    bool abortive = false, exhaustive_draw = false;
    for (Py_ssize_t j = 0; j < ndraws; ++j) {
        PyObject* d = PyList_GET_ITEM(scan.draws.ptr(), j);
        PyObject* kind = slot_or_decline(d, draw_slots.at[dKind]);
        if (!PyUnicode_CheckExact(kind)) throw Declined{};
        const Py_ssize_t size = read_deltas(slot_or_decline(d, draw_slots.at[dDeltas]), deltas, kMaxDeltas);
        for (Py_ssize_t s = 0; s < size && s < n; ++s) rows[s].delta += deltas[s];
        const int is_abortive = PySequence_Contains(abortive_kinds, kind);
        if (is_abortive < 0) throw py::error_already_set();
        if (is_abortive) {
            abortive = true;
            continue;
        }
        if (PyUnicode_CompareWithASCIIString(kind, "exhaustive") != 0)
            throw Declined{};  // a nagashi mangan (rare) or a kind Python must judge
        exhaustive_draw = true;
        PyObject* shown = slot_or_decline(d, draw_slots.at[dShown]);
        if (!PyTuple_CheckExact(shown)) throw Declined{};  // JSON: no hands shown
        for (long s = 0; s < n; ++s) rows[s].tenpai = 0;
        const Py_ssize_t nshown = PyTuple_GET_SIZE(shown);
        for (Py_ssize_t k = 0; k < nshown; ++k) {
            PyObject* pair = PyTuple_GET_ITEM(shown, k);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) throw Declined{};
            const long s = plain_long(PyTuple_GET_ITEM(pair, 0));
            if (s >= 0 && s < n) rows[s].tenpai = 1;
        }
    }

    // the wins, in log order, as stats.facts._add_win writes them
    for (Py_ssize_t j = 0; j < nwins; ++j) {
        PyObject* win = PyList_GET_ITEM(scan.wins.ptr(), j);
        PyObject* yaku_names = slot_or_decline(win, win_slots.at[wYakuNames]);
        if (!PyTuple_CheckExact(yaku_names) || PyTuple_GET_SIZE(yaku_names) != 0)
            throw Declined{};  // JSON yaku names: Python reads them
        const Py_ssize_t size = read_deltas(slot_or_decline(win, win_slots.at[wDeltas]), deltas, kMaxDeltas);
        for (Py_ssize_t s = 0; s < size && s < n; ++s) rows[s].delta += deltas[s];
        const long seat = plain_long(slot_or_decline(win, win_slots.at[wSeat]));
        if (seat < 0) throw Declined{};
        if (seat >= n) continue;
        const long from = plain_long(slot_or_decline(win, win_slots.at[wFrom]));
        PyObject* pao_obj = slot_or_decline(win, win_slots.at[wPao]);
        long pao = -1;  // -1: none (or past the table)
        if (pao_obj != Py_None) {
            pao = plain_long(pao_obj);
            if (pao < 0) throw Declined{};  // Python would index from the end
            if (pao >= n) pao = -1;
        }
        // Python indexes rows and deltas with these: a negative seat or a short deltas
        // tuple is Python's to answer
        if (from < 0 || (size > 0 && size < n) || (size > 0 && from >= size)) throw Declined{};
        PyObject* points = slot_or_decline(win, win_slots.at[wPoints]);
        PyObject* yakuman = slot_or_decline(win, win_slots.at[wYakuman]);
        if (!PyTuple_CheckExact(yakuman)) throw Declined{};
        const bool tsumo = seat == from;
        const Facts& facts = scan.facts[seat];
        const bool riichi = facts.riichi_turn != 0;
        const bool opened = facts.called;
        Row& r = rows[seat];
        r.won = true;
        if (tsumo) r.won_tsumo = true;
        else r.won_ron = true;
        r.value += points == Py_None ? 0 : plain_long(points);
        r.has_value = true;
        if (size > 0) {
            r.payment += deltas[seat];
            r.has_payment = true;
        }
        riichi_yaku(slot_or_decline(win, win_slots.at[wYaku]), r);
        if (PyTuple_GET_SIZE(yakuman) > 0) r.yakuman = true;
        r.win_kind = true;
        r.riichi_win = riichi;
        r.open_win = opened;
        r.dama_win = !opened && !riichi;
        if (!tsumo && from < n) {
            Row& loser = rows[from];
            loser.dealt_in = true;
            ++loser.deal_in_to;
            if (size > 0) loser.deal_in_payment += -deltas[from];
            if (riichi) ++loser.to_riichi;
            else if (opened) ++loser.to_open;
            else ++loser.to_dama;
        }
        if (pao >= 0 && pao != from && size > 0) rows[pao].pao_paid += -deltas[pao];
        if (tsumo && size > 0)
            for (long s = 0; s < n; ++s)
                if (s != seat && s != pao) rows[s].lost_to_tsumo += -deltas[s];
    }

    const Results& names = results();
    PyObject* result = nwins > 0           ? names.win
                       : abortive          ? names.abortive
                       : exhaustive_draw   ? names.exhaustive
                                           : names.none;

    PyObject* dealt = scan.dealt.ptr();
    const SeatHand hand{index, label, result, dealer, dealt, PyList_GET_SIZE(dealt), cost_obj,
                        cost, scan.declared};
    for (long s = 0; s < n; ++s) {
        // every column, in order, at its default but the seat's (make_seat_rows); the
        // hand's own values written per row (cheaper than a copy of a hand row per hand:
        // a 47-key dict each)
        if (out.table == nullptr) {
            PyObject* row = PyDict_Copy(seats.row[s].ptr());
            if (row == nullptr) throw py::error_already_set();
            const int appended = PyList_Append(out.list, row);
            Py_DECREF(row);  // ``out.list`` holds it
            if (appended < 0) throw py::error_already_set();
            DictRow w{row, keys};
            write_seat(w, s, hand, rows[s], scan.facts[s]);
        } else {
            CellRow w(out, s);
            write_seat(w, s, hand, rows[s], scan.facts[s]);
        }
    }
}

}  // namespace

void make_seat_rows(SeatRows& out, long n, PyObject* const* ctx) {
    PyObject* base = ctx[kBase];
    PyObject* names = ctx[kNames];
    out.ok = false;
    if (!PyDict_CheckExact(base) || !PyTuple_CheckExact(names) || PyTuple_GET_SIZE(names) < n)
        return;
    const Writer w{&PyTuple_GET_ITEM(ctx[kKeys], 0)};
    for (long s = 0; s < n; ++s) {
        PyObject* row = PyDict_Copy(base);
        if (row == nullptr) throw py::error_already_set();
        out.row[s] = py::reinterpret_steal<py::object>(row);
        w.put_long(row, fSeat, s);
        w.put(row, fName, PyTuple_GET_ITEM(names, s));
        w.put(row, fResult, results().win);
    }
    out.ok = true;
}

bool seat_cells(FactsRowsOut& out, const SeatRows& seats, long n,
                              PyObject* const* ctx) {
    if (out.table == nullptr || !seats.ok) return false;
    PyObject* keys = ctx[kKeys];
    for (long s = 0; s < n; ++s) {
        PyObject* row = seats.row[s].ptr();
        if (PyDict_GET_SIZE(row) != fCols) return false;
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        for (int c = 0; PyDict_Next(row, &pos, &key, &value); ++c) {
            if (key != PyTuple_GET_ITEM(keys, c) &&
                (!PyUnicode_CheckExact(key) ||
                 PyUnicode_Compare(key, PyTuple_GET_ITEM(keys, c)) != 0))
                return false;
            out.cells[s][c] = value;
        }
    }
    out.keys = keys;  // the key sequence is the table's at the first row (CellRow::done)
    return true;
}

void append_hand_rows(FactsRowsOut& out, PyObject* hand, long n,
                                    PyObject* const* ctx, const SeatRows& seats,
                                    PyObject* fallback, PyObject* label) {
    static NamedSlots<4> hand_slots;
    static const char* const hand_names[4] = {"events", "haipai", "index", "dealer"};
    enum { hEvents, hHaipai, hIndex, hDealer };
    if (seats.ok && hand_slots.of(Py_TYPE(hand), hand_names)) {
        PyObject* events = slot_value(hand, hand_slots.at[hEvents]);
        PyObject* haipai = slot_value(hand, hand_slots.at[hHaipai]);
        PyObject* index = slot_value(hand, hand_slots.at[hIndex]);
        PyObject* dealer = slot_value(hand, hand_slots.at[hDealer]);
        if (events != nullptr && haipai != nullptr && index != nullptr && dealer != nullptr &&
            (PyTuple_CheckExact(events) || is_hand_events(events)) && PyTuple_CheckExact(haipai) &&
            PyLong_CheckExact(dealer)) {
            py::object label_owner;
            if (label == nullptr) {
                label = hand_label(hand);
                if (label == nullptr) throw py::error_already_set();
                label_owner = py::reinterpret_steal<py::object>(label);
            }
            int overflow = 0;
            const long seat = PyLong_AsLongAndOverflow(dealer, &overflow);
            if (overflow == 0) {
                try {
                    rows_of(out, events, haipai, n, index, label, seat, ctx, seats);
                    return;
                } catch (const Declined&) {
                }
            }
        }
    }
    const py::object got = py::reinterpret_steal<py::object>(PyObject_CallOneArg(fallback, hand));
    if (!got) throw py::error_already_set();
    if (out.table != nullptr) {  // Python's rows as the runner would add them
        if (!PyList_CheckExact(got.ptr()) || !table_add_rows(*out.table, got.ptr(), out.source))
            throw TableDeclined{};
        out.rows += static_cast<std::size_t>(PyList_GET_SIZE(got.ptr()));
        return;
    }
    const Py_ssize_t end = PyList_GET_SIZE(out.list);
    if (PyList_SetSlice(out.list, end, end, got.ptr()) < 0) throw py::error_already_set();
}

bool check_rows_ctx(PyObject* ctx) {
    if (!PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != kCtxSize) {
        PyErr_SetString(PyExc_TypeError, "game_rows: the context must be a 7-tuple");
        return false;
    }
    PyObject* const* c = &PyTuple_GET_ITEM(ctx, 0);
    return check_classes(c[kClassesArg], c[kKindsArg]) && check_keys(c[kKeys]);
}

namespace {

// The rows of every hand of ``hands``, in order (append_hand_rows).
PyObject* all_rows(PyObject* hands, long n, PyObject* const* ctx, PyObject* fallback) {
    py::list list;
    FactsRowsOut out;
    out.list = list.ptr();
    SeatRows seats;
    make_seat_rows(seats, n, ctx);
    const Py_ssize_t count = PyTuple_GET_SIZE(hands);
    for (Py_ssize_t i = 0; i < count; ++i)
        append_hand_rows(out, PyTuple_GET_ITEM(hands, i), n, ctx, seats, fallback, nullptr);
    return list.release().ptr();
}

}  // namespace

}  // namespace facts_detail

PyObject* game_rows(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    using namespace facts_detail;  // not at file scope: it would reach the unity build's next files
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "game_rows takes 4 arguments");
        return nullptr;
    }
    PyObject* ctx = args[2];
    if (!check_rows_ctx(ctx)) return nullptr;
    PyObject* const* c = &PyTuple_GET_ITEM(ctx, 0);
    PyObject* hands = args[0];
    if (!PyTuple_CheckExact(hands) || !PyLong_CheckExact(args[1])) Py_RETURN_NONE;
    int overflow = 0;
    const long n = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow != 0 || n < 1 || n > kMaxSeats) Py_RETURN_NONE;
    return python_errors([&]() -> PyObject* { return all_rows(hands, n, c, args[3]); });
}

}  // namespace replay_audit::core
