// The scoring engine's Python bindings (scoring.hpp): a win's value and payments read from
// replay_audit's WinContext and WinValue objects, the WinBatch of many wins, and the
// auditor's row of a win that agrees with its value (auditing/wins.py).  module.cpp
// registers them through def_scoring and def_auditor_win; replay_audit/scoring/core.py
// and auditing/wins.py are their Python side, each with its fallback to the Python code.
// This file: the conversions between a WinContext or WinValue and the core's values
// (declared in score_context.hpp, shared with the auditor's win), one win's value and
// deltas, the WinBatch, and their registration (def_scoring); the auditor's win is
// score_win_row.cpp.  The conversions are not a file of their own because each file
// that includes pybind11 adds some six seconds of compile time.
#include "score_bindings.hpp"

#include "score_context.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "scoring.hpp"

namespace py = pybind11;
namespace core = replay_audit::core;

namespace replay_audit::core::score_py {

namespace {

// The fu item labels of replay_audit/scoring/fu.py, by code (scoring.hpp).
const std::vector<py::object>& labels() {
    static const std::vector<py::object>* table = [] {
        static const char* kinds[34] = {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",
                                        "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
                                        "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s",
                                        "E",  "S",  "W",  "N",  "P",  "F",  "C"};
        auto* out = new std::vector<py::object>(core::kNumLabels);
        const char* fixed[8] = {"base",         "menzen ron",   "tsumo",
                                "kanchan wait", "penchan wait", "tanki wait",
                                "open pinfu shape", "chiitoitsu"};
        for (int i = 0; i < 8; ++i) (*out)[i] = py::str(fixed[i]);
        for (int k = 0; k < 34; ++k) {
            (*out)[core::kPairLabel + k] = py::str(std::string("pair ") + kinds[k]);
            for (int kan = 0; kan < 2; ++kan) {
                for (int concealed = 0; concealed < 2; ++concealed) {
                    std::string text = std::string(concealed ? "closed " : "open ") +
                                       (kan ? "kan " : "triplet ") + kinds[k];
                    (*out)[core::kSetLabel + 68 * kan + 2 * k + concealed] = py::str(text);
                }
            }
        }
        return out;
    }();
    return *table;
}

py::object error_name(int error) {
    static const py::str* not_complete = new py::str("not_complete");
    static const py::str* no_yaku = new py::str("no_yaku");
    if (error == core::kNotComplete) return *not_complete;
    if (error == core::kNoYaku) return *no_yaku;
    return py::none();
}

// The WinValue class (replay_audit/scoring/context.py), given once by native.py, and
// the slot descriptors of its fields in WinValue's order: a value is made without
// running the dataclass __init__ (a third of a call's time), each slot set directly.
constexpr int kValueFields = 13;
const char* const kValueFieldNames[kValueFields] = {
    "han",          "fu",          "points",      "limit",
    "yaku",         "yakuman",     "yakuman_count", "base",
    "ron_payment",  "tsumo_dealer_payment", "tsumo_other_payment", "fu_items",
    "error"};
PyTypeObject* g_value_type = nullptr;
PyObject* g_value_slots[kValueFields] = {};

}  // namespace

const Names& names() {
    static const Names* n = new Names();  // never freed: lives as long as the module
    return *n;
}

// Attribute ``name`` of ``obj`` as a new reference, or null (error cleared).
py::object attr(py::handle obj, const py::str& name) {
    PyObject* v = PyObject_GetAttr(obj.ptr(), name.ptr());
    if (!v) {
        PyErr_Clear();
        return py::object();
    }
    return py::reinterpret_steal<py::object>(v);
}

bool read_long(py::handle obj, long* out) {
    if (!obj || !PyLong_Check(obj.ptr())) return false;
    const long v = PyLong_AsLong(obj.ptr());
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    *out = v;
    return true;
}

bool read_truth(py::handle obj, const py::str& name, bool* out) {
    py::object v = attr(obj, name);
    if (!v) return false;
    const int t = PyObject_IsTrue(v.ptr());
    if (t < 0) {
        PyErr_Clear();
        return false;
    }
    *out = t != 0;
    return true;
}

// Tile ids 0-135 of a sequence into ``out`` (at most ``cap``).
bool read_tiles(py::handle seq, std::uint8_t* out, int cap, std::uint8_t* n) {
    if (!seq) return false;
    PyObject* fast = PySequence_Fast(seq.ptr(), "tiles");
    if (!fast) {
        PyErr_Clear();
        return false;
    }
    py::object hold = py::reinterpret_steal<py::object>(fast);
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > cap) return false;
    PyObject** items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < size; ++i) {
        long v;
        if (!read_long(items[i], &v) || v < 0 || v >= 136) return false;
        out[i] = static_cast<std::uint8_t>(v);
    }
    *n = static_cast<std::uint8_t>(size);
    return true;
}

// A WinContext as core::WinIn; false for anything the core leaves to Python.
bool read_win(py::handle ctx, core::WinIn* in) {
    const Names& nm = names();
    if (!read_tiles(attr(ctx, nm.tiles), in->tiles, core::kMaxTiles, &in->n_tiles)) return false;
    long win, seat, dealer, round_wind, players;
    if (!read_long(attr(ctx, nm.win_tile), &win) || win < 0 || win >= 136) return false;
    if (!read_long(attr(ctx, nm.seat), &seat) || !read_long(attr(ctx, nm.dealer), &dealer))
        return false;
    if (!read_long(attr(ctx, nm.round_wind), &round_wind) || round_wind < 0 || round_wind > 3)
        return false;
    if (!read_long(attr(ctx, nm.players), &players) || (players != 3 && players != 4))
        return false;
    if (seat < -1000000 || seat > 1000000 || dealer < -1000000 || dealer > 1000000) return false;
    in->win_tile = static_cast<std::uint8_t>(win);
    in->players = static_cast<std::uint8_t>(players);
    in->round_wind = static_cast<std::uint8_t>(round_wind);
    long sw = (seat - dealer) % players;
    if (sw < 0) sw += players;
    in->seat_wind = static_cast<std::int32_t>(sw);
    in->dealer = seat == dealer;
    static const std::pair<const py::str Names::*, std::uint16_t> flags[] = {
        {&Names::tsumo, core::kTsumo},     {&Names::riichi, core::kRiichi},
        {&Names::double_riichi, core::kDoubleRiichi}, {&Names::ippatsu, core::kIppatsu},
        {&Names::haitei, core::kHaitei},   {&Names::houtei, core::kHoutei},
        {&Names::rinshan, core::kRinshan}, {&Names::chankan, core::kChankan},
        {&Names::tenhou, core::kTenhou},   {&Names::chiihou, core::kChiihou},
        {&Names::renhou, core::kRenhou},
    };
    in->flags = 0;
    for (const auto& [name, flag] : flags) {
        bool on;
        if (!read_truth(ctx, nm.*name, &on)) return false;
        if (on) in->flags |= flag;
    }
    if (!read_tiles(attr(ctx, nm.dora_indicators), in->dora, core::kMaxIndicators, &in->n_dora))
        return false;
    if (!read_tiles(attr(ctx, nm.ura_indicators), in->ura, core::kMaxIndicators, &in->n_ura))
        return false;
    py::object melds = attr(ctx, nm.melds);
    if (!melds) return false;
    PyObject* fast = PySequence_Fast(melds.ptr(), "melds");
    if (!fast) {
        PyErr_Clear();
        return false;
    }
    py::object hold = py::reinterpret_steal<py::object>(fast);
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > core::kMaxMelds) return false;
    PyObject** items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < size; ++i) {
        core::MeldIn& m = in->melds[i];
        py::object kind = attr(items[i], nm.kind);
        if (!kind || !PyUnicode_Check(kind.ptr())) return false;
        Py_ssize_t len;
        const char* text = PyUnicode_AsUTF8AndSize(kind.ptr(), &len);
        if (!text) {
            PyErr_Clear();
            return false;
        }
        const std::string_view k(text, static_cast<std::size_t>(len));
        if (k == "chi") m.kind = core::kChi;
        else if (k == "pon") m.kind = core::kPon;
        else if (k == "daiminkan") m.kind = core::kDaiminkan;
        else if (k == "kakan") m.kind = core::kKakan;
        else if (k == "ankan") m.kind = core::kAnkan;
        else if (k == "kita") m.kind = core::kKita;
        else return false;
        if (!read_tiles(attr(items[i], nm.tiles), m.tiles, 4, &m.n) || m.n == 0) return false;
    }
    in->n_melds = static_cast<std::uint8_t>(size);
    return true;
}

// The WinValue fields, in WinValue's order (replay_audit/scoring/context.py).
py::tuple value_tuple(const core::WinOut& o) {
    const auto& label = labels();
    py::tuple yaku(o.n_yaku);
    for (int j = 0; j < o.n_yaku; ++j)
        yaku[j] = py::make_tuple(static_cast<int>(o.yaku_id[j]), o.yaku_han[j]);
    py::tuple yakuman(o.n_yakuman);
    for (int j = 0; j < o.n_yakuman; ++j) yakuman[j] = py::int_(static_cast<int>(o.yakuman[j]));
    py::tuple items(o.n_items);
    for (int j = 0; j < o.n_items; ++j)
        items[j] = py::make_tuple(label[o.item_label[j]], static_cast<int>(o.item_fu[j]));
    return py::make_tuple(o.han, o.fu, o.points, o.limit, std::move(yaku), std::move(yakuman),
                          o.yakuman_count, o.base, o.ron, o.tsumo_dealer, o.tsumo_other,
                          std::move(items), error_name(o.error));
}

void set_value_type(py::handle cls) {
    if (!PyType_Check(cls.ptr())) throw py::type_error("a class is needed");
    PyObject* slots[kValueFields];
    for (int i = 0; i < kValueFields; ++i) {
        PyObject* d = PyObject_GetAttrString(cls.ptr(), kValueFieldNames[i]);
        if (!d) throw py::error_already_set();
        if (Py_TYPE(d) != &PyMemberDescr_Type || !Py_TYPE(d)->tp_descr_set) {
            Py_DECREF(d);
            for (int j = 0; j < i; ++j) Py_DECREF(slots[j]);
            throw py::type_error(std::string("not a slot: ") + kValueFieldNames[i]);
        }
        slots[i] = d;
    }
    for (int i = 0; i < kValueFields; ++i) {
        Py_XDECREF(g_value_slots[i]);
        g_value_slots[i] = slots[i];
    }
    Py_INCREF(cls.ptr());
    Py_XDECREF(reinterpret_cast<PyObject*>(g_value_type));
    g_value_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
}

// A WinValue object with the fields of ``fields`` (value_tuple's order).
py::object value_object(const py::tuple& fields) {
    if (!g_value_type) throw std::runtime_error("_core.set_value_type was not called");
    static PyObject* empty = PyTuple_New(0);
    PyObject* obj = g_value_type->tp_new(g_value_type, empty, nullptr);
    if (!obj) throw py::error_already_set();
    py::object result = py::reinterpret_steal<py::object>(obj);
    for (int i = 0; i < kValueFields; ++i) {
        PyObject* d = g_value_slots[i];
        if (Py_TYPE(d)->tp_descr_set(d, obj, PyTuple_GET_ITEM(fields.ptr(), i)) < 0)
            throw py::error_already_set();
    }
    return result;
}

namespace {

core::ScoreRules make_rules(int players, int aka, const std::vector<int>& red_fives, bool kuitan,
                            bool kiriage, int double_wind_fu, int rinshan_tsumo_fu,
                            int open_pinfu_fu, std::string_view renhou, std::string_view yakuman,
                            std::string_view kazoe, bool tsumo_loss, std::int64_t honba_ron,
                            std::int64_t honba_tsumo, std::int64_t riichi_cost,
                            const std::vector<int>& pao_yakuman, std::string_view pao_scope,
                            const std::vector<int>& double_yakuman) {
    core::ScoreRules r;
    if (players != 3 && players != 4) throw py::value_error("players must be 3 or 4");
    r.players = players;
    r.aka = aka;
    if (red_fives.size() > 8) throw py::value_error("at most 8 red fives");
    r.n_red = static_cast<int>(red_fives.size());
    for (std::size_t i = 0; i < red_fives.size(); ++i) r.red_fives[i] = red_fives[i];
    r.kuitan = kuitan;
    r.kiriage = kiriage;
    r.double_wind_fu = double_wind_fu;
    r.rinshan_tsumo_fu = rinshan_tsumo_fu;
    r.open_pinfu_fu = open_pinfu_fu;
    if (double_wind_fu < 0 || double_wind_fu > 100 || rinshan_tsumo_fu < 0 ||
        rinshan_tsumo_fu > 100 || open_pinfu_fu < 0 || open_pinfu_fu > 120)
        throw py::value_error("fu values out of range");
    if (renhou == "none") r.renhou = core::kRenhouNone;
    else if (renhou == "mangan") r.renhou = core::kRenhouMangan;
    else if (renhou == "yakuman") r.renhou = core::kRenhouYakuman;
    else throw py::value_error("renhou is none, mangan or yakuman");
    if (yakuman == "single") r.yakuman = core::kYakumanSingle;
    else if (yakuman == "cumulative") r.yakuman = core::kYakumanCumulative;
    else if (yakuman == "full") r.yakuman = core::kYakumanFull;
    else throw py::value_error("yakuman is single, cumulative or full");
    if (kazoe == "none") r.kazoe = core::kKazoeNone;
    else if (kazoe == "sanbaiman") r.kazoe = core::kKazoeSanbaiman;
    else if (kazoe == "single") r.kazoe = core::kKazoeSingle;
    else if (kazoe == "multiple") r.kazoe = core::kKazoeMultiple;
    else throw py::value_error("kazoe is none, sanbaiman, single or multiple");
    r.tsumo_loss = tsumo_loss;
    r.honba_ron = honba_ron;
    r.honba_tsumo = honba_tsumo;
    r.riichi_cost = riichi_cost;
    if (pao_yakuman.size() > 16) throw py::value_error("at most 16 pao yakuman");
    r.n_pao = static_cast<int>(pao_yakuman.size());
    for (std::size_t i = 0; i < pao_yakuman.size(); ++i) r.pao_yakuman[i] = pao_yakuman[i];
    if (pao_scope == "all") r.pao_scope_all = true;
    else if (pao_scope == "yakuman_only") r.pao_scope_all = false;
    else throw py::value_error("pao_scope is all or yakuman_only");
    if (double_yakuman.size() > 16) throw py::value_error("at most 16 double yakuman");
    r.n_double = static_cast<int>(double_yakuman.size());
    for (std::size_t i = 0; i < double_yakuman.size(); ++i) r.double_yakuman[i] = double_yakuman[i];
    return r;
}

// score_win for one WinContext: the WinValue fields, or None if the core declines.
py::object score_win_py(py::handle ctx, const core::ScoreRules& rules) {
    core::WinIn in;
    if (!read_win(ctx, &in)) return py::none();
    core::WinOut out;
    if (core::score_win(in, rules, &out) == core::kDeclined) return py::none();
    return value_tuple(out);
}

// score_win returning the WinValue itself (set_value_type first), or None if declined.
py::object score_win_value_py(py::handle ctx, const core::ScoreRules& rules) {
    core::WinIn in;
    if (!read_win(ctx, &in)) return py::none();
    core::WinOut out;
    if (core::score_win(in, rules, &out) == core::kDeclined) return py::none();
    return value_object(value_tuple(out));
}

bool read_i64(py::handle obj, const py::str& name, std::int64_t* out) {
    py::object v = attr(obj, name);
    if (!v || !PyLong_Check(v.ptr())) return false;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return false;
    }
    constexpr long long kBound = 1LL << 40;  // keeps every product below 2**63
    if (x > kBound || x < -kBound) return false;
    *out = x;
    return true;
}

// win_deltas for one WinValue: the deltas, or None if the core declines.
py::object win_deltas_py(py::handle value, long winner, long from_seat, long dealer,
                         long players, std::int64_t honba, std::int64_t sticks,
                         bool first_winner, py::object pao_seat,
                         const core::ScoreRules& rules) {
    const Names& nm = names();
    core::DeltasIn in;
    constexpr long kSeatBound = 1000000;
    constexpr std::int64_t kBound = std::int64_t{1} << 40;
    if (players != 3 && players != 4) return py::none();
    if (dealer < -kSeatBound || dealer > kSeatBound) return py::none();
    if (honba < -kBound || honba > kBound || sticks < -kBound || sticks > kBound)
        return py::none();
    if (!read_i64(value, nm.ron_payment, &in.ron) ||
        !read_i64(value, nm.tsumo_dealer_payment, &in.tsumo_dealer) ||
        !read_i64(value, nm.tsumo_other_payment, &in.tsumo_other) ||
        !read_i64(value, nm.base, &in.base))
        return py::none();
    py::object yakuman = attr(value, nm.yakuman);
    if (!yakuman) return py::none();
    PyObject* fast = PySequence_Fast(yakuman.ptr(), "yakuman");
    if (!fast) {
        PyErr_Clear();
        return py::none();
    }
    py::object hold = py::reinterpret_steal<py::object>(fast);
    const Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > core::kMaxYakuman) return py::none();
    for (Py_ssize_t i = 0; i < size; ++i) {
        long y;
        if (!read_long(PySequence_Fast_GET_ITEM(fast, i), &y) || y < 0 || y > 255)
            return py::none();
        in.yakuman[i] = static_cast<int>(y);
    }
    in.n_yakuman = static_cast<int>(size);
    if (winner < 0 || winner >= players || from_seat < 0 || from_seat >= players)
        return py::none();
    in.winner = static_cast<int>(winner);
    in.from_seat = static_cast<int>(from_seat);
    in.dealer = static_cast<int>(dealer);
    in.players = static_cast<int>(players);
    in.honba = honba;
    in.sticks = sticks;
    in.first_winner = first_winner;
    if (pao_seat.is_none()) {
        in.pao_seat = -1;
    } else {
        long p;
        if (!read_long(pao_seat, &p) || p < 0 || p >= players) return py::none();
        in.pao_seat = static_cast<int>(p);
    }
    std::int64_t out[4];
    if (core::win_deltas(in, rules, out) != core::kWinOk) return py::none();
    py::tuple result(players);
    for (long s = 0; s < players; ++s) result[s] = py::int_(out[s]);
    return std::move(result);
}

// Many wins under one rule set: contexts read once (add), scored in one call (score).
class WinBatch {
public:
    explicit WinBatch(const core::ScoreRules& rules) : rules_(rules) {}

    bool add(py::handle ctx) {
        core::WinIn in;
        const bool ok = read_win(ctx, &in);
        wins_.push_back(in);
        read_.push_back(ok);
        return ok;
    }
    std::size_t size() const { return wins_.size(); }

    // Score every win; the results stay in the batch (``columns``, ``values``).
    void score() {
        outs_.resize(wins_.size());
        for (std::size_t i = 0; i < wins_.size(); ++i) {
            if (!read_[i]) {
                outs_[i].error = core::kDeclined;
                continue;
            }
            core::score_win(wins_[i], rules_, &outs_[i]);
        }
    }

    // Per win, kColumns int64 numbers: error (-1 declined, 0 ok, 1 not_complete,
    // 2 no_yaku), han, fu, points, limit, yakuman_count, base, ron, tsumo_dealer,
    // tsumo_other.
    static constexpr int kColumns = 10;
    py::bytes columns() const {
        std::vector<std::int64_t> flat(outs_.size() * kColumns);
        for (std::size_t i = 0; i < outs_.size(); ++i) {
            const core::WinOut& o = outs_[i];
            std::int64_t* row = flat.data() + i * kColumns;
            row[0] = o.error;
            row[1] = o.han;
            row[2] = o.fu;
            row[3] = o.points;
            row[4] = o.limit;
            row[5] = o.yakuman_count;
            row[6] = o.base;
            row[7] = o.ron;
            row[8] = o.tsumo_dealer;
            row[9] = o.tsumo_other;
        }
        return py::bytes(reinterpret_cast<const char*>(flat.data()),
                         flat.size() * sizeof(std::int64_t));
    }

    // Per win, the WinValue fields as ``score_win`` gives them, or None if declined.
    py::list values() const {
        py::list out(outs_.size());
        for (std::size_t i = 0; i < outs_.size(); ++i) {
            if (outs_[i].error == core::kDeclined)
                out[i] = py::none();
            else
                out[i] = value_tuple(outs_[i]);
        }
        return out;
    }

    // The same as WinValue objects (set_value_type first), None where declined.
    py::list win_values() const {
        py::list out(outs_.size());
        for (std::size_t i = 0; i < outs_.size(); ++i) {
            if (outs_[i].error == core::kDeclined)
                out[i] = py::none();
            else
                out[i] = value_object(value_tuple(outs_[i]));
        }
        return out;
    }

private:
    core::ScoreRules rules_;
    std::vector<core::WinIn> wins_;
    std::vector<bool> read_;
    std::vector<core::WinOut> outs_;
};

}  // namespace

}  // namespace replay_audit::core::score_py

namespace replay_audit::core {

void def_scoring(py::module_& m) {
    using namespace score_py;  // not at file scope: it would reach the unity build's next files
    py::class_<core::ScoreRules>(m, "ScoreRules",
                                 "The RuleSet fields the scoring and the payments read\n"
                                 "(replay_audit.rules.RuleSet; replay_audit.native fills it).")
        .def(py::init(&make_rules), py::kw_only(), py::arg("players"), py::arg("aka"),
             py::arg("red_fives"), py::arg("kuitan"), py::arg("kiriage"),
             py::arg("double_wind_fu"), py::arg("rinshan_tsumo_fu"), py::arg("open_pinfu_fu"),
             py::arg("renhou"), py::arg("yakuman"), py::arg("kazoe"), py::arg("tsumo_loss"),
             py::arg("honba_ron"), py::arg("honba_tsumo"), py::arg("riichi_cost"),
             py::arg("pao_yakuman"), py::arg("pao_scope"), py::arg("double_yakuman"));
    m.def("score_win", &score_win_py, py::arg("ctx"), py::arg("rules"),
          "The value of one win (a replay_audit.scoring.context.WinContext) under the rules:\n"
          "the WinValue fields in their order, or None when the core declines the context\n"
          "(then the Python scorer answers).  Han-and-fu scoring only (not Toutenkou).");
    m.def("set_value_type", &set_value_type, py::arg("cls"),
          "Give the WinValue class (replay_audit.scoring.context.WinValue), whose fields\n"
          "``score_win_value`` and ``WinBatch.win_values`` set slot by slot.");
    m.def("score_win_value", &score_win_value_py, py::arg("ctx"), py::arg("rules"),
          "``score_win`` returning the WinValue itself (set_value_type first), or None.");
    m.def("win_deltas", &win_deltas_py, py::arg("value"), py::kw_only(), py::arg("winner"),
          py::arg("from_seat"), py::arg("dealer"), py::arg("players"), py::arg("honba"),
          py::arg("sticks"), py::arg("first_winner"), py::arg("pao_seat"), py::arg("rules"),
          "Per-seat deltas of one win (replay_audit.scoring.payments.win_deltas), or None\n"
          "when the core declines the arguments (then the Python function answers).");
    py::class_<WinBatch>(m, "WinBatch",
                         "Many wins under one rule set: ``add`` reads each WinContext, ``score``\n"
                         "scores them all in one call, ``columns``/``values`` give the results.")
        .def(py::init<const core::ScoreRules&>(), py::arg("rules"))
        .def("add", &WinBatch::add, py::arg("ctx"),
             "Read one WinContext; False if the core declines it (its result: None).")
        .def("__len__", &WinBatch::size)
        .def("score", &WinBatch::score, "Score every win added (results kept in the batch).")
        .def("columns", &WinBatch::columns,
             "The results as int64 numbers, 10 per win: error (-1 declined, 0 ok,\n"
             "1 not_complete, 2 no_yaku), han, fu, points, limit, yakuman_count, base,\n"
             "ron, tsumo_dealer, tsumo_other.")
        .def("values", &WinBatch::values,
             "The results as ``score_win`` gives them (None where declined).")
        .def("win_values", &WinBatch::win_values,
             "The results as WinValue objects (set_value_type first; None where declined).");
}

}  // namespace replay_audit::core
