// The conversions between replay_audit's scoring values and the core's (declared in
// score_context.hpp): a WinContext's attributes read into core::WinIn, with the interned
// names and the small readers of ints, truths and tile sequences (false for anything the
// core leaves to the Python scorer), and a core::WinOut made into WinValue's fields (the
// fu item labels, the error names) or into the WinValue object itself, slot by slot.
#include "score_context.hpp"

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

}  // namespace replay_audit::core::score_py
