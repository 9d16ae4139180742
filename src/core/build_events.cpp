// GameBuilder (build_events.hpp): one mjlog document read into the tables of game.hpp,
// then the Game's events, results and hands made from them with raw CPython calls.
// The values are those replay_audit/parsers/tenhou_xml/builder.py makes (the Python
// reader); tests/test_core_mjlog.py holds the two equal over the shared corpus.
//
// Every helper that makes a value returns a new reference, or null with the Python
// error set; SlotClass::make takes such references (stealing them) and throws if one
// is null, so no reference leaks on the way out.
// The values themselves are made by the helpers of build_values.hpp; this file is the
// builder's walk over the tables, and its binding.
#include "build_events.hpp"

#include "build_values.hpp"
#include "hand_events.hpp"

#include <structmember.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mjlog.hpp"
#include "py_errors.hpp"

namespace py = pybind11;

namespace replay_audit::core::mjlog {

using namespace build_values;

namespace {

// The tables one build reads into: this thread's kept GameTables, whose columns keep
// their room from one document to the next (a Phoenix log regrew each of some fifty
// vectors a few times), or a fresh one if this thread's is in use (a build inside a
// build, through a Python callback) or has grown past a normal log's size.
class Tables {
public:
    Tables() {
        if (!kept_in_use_) {
            kept_in_use_ = true;
            own_ = false;
        }
    }
    ~Tables() {
        if (own_) return;
        if (kept_.events.seq.capacity() > kKeepElements) kept_ = GameTables{};
        kept_in_use_ = false;
    }
    Tables(const Tables&) = delete;
    Tables& operator=(const Tables&) = delete;
    GameTables& get() { return own_ ? fresh_ : kept_; }

private:
    static constexpr std::size_t kKeepElements = 1 << 14;
    static thread_local GameTables kept_;
    static thread_local bool kept_in_use_;
    bool own_ = true;
    GameTables fresh_;
};

thread_local GameTables Tables::kept_;
thread_local bool Tables::kept_in_use_ = false;

class GameBuilder {
public:
    GameBuilder(py::handle draw, py::handle discard, py::handle call, py::handle riichi_declare,
                py::handle riichi_accept, py::handle new_dora, py::handle disconnect,
                py::handle reconnect, py::handle win, py::handle drawn, py::handle owari,
                py::handle hand, py::handle meld, py::handle player, const py::sequence& meld_kinds,
                const py::sequence& draw_kinds, py::handle unquote)
        : draw_(draw, {"seq", "seat", "tile"}),
          discard_(discard, {"seq", "seat", "tile", "tsumogiri"}),
          call_(call, {"seq", "seat", "meld"}),
          declare_(riichi_declare, {"seq", "seat"}),
          accept_(riichi_accept, {"seq", "seat", "scores", "legacy"}),
          dora_(new_dora, {"seq", "indicator"}),
          bye_(disconnect, {"seq", "seat"}),
          un_(reconnect, {"seq", "seat", "name"}),
          win_(win, {"seq", "seat", "from_seat", "hand", "melds", "win_tile", "fu", "points",
                     "limit", "yaku", "yakuman", "dora", "ura", "honba", "sticks",
                     "scores_before", "deltas", "pao_seat", "chips_before", "chip_deltas", "chip",
                     "ratio", "owari", "point_string", "yaku_names"}),
          drawn_(drawn, {"seq", "kind", "honba", "sticks", "scores_before", "deltas", "shown",
                         "chips_before", "chip_deltas", "ratio", "owari", "status_string"}),
          owari_(owari, {"scores", "points"}),
          hand_(hand, {"index", "seq", "round_index", "honba", "sticks", "dealer", "scores",
                       "haipai", "dora_indicator", "dice", "events", "chips", "extra"}),
          meld_(meld, {"kind", "tiles", "called", "from_seat", "added"}),
          player_(player, {"name", "dan", "rate", "sex", "extra"}),
          meld_kinds_(strs(meld_kinds, 6, "6 meld kinds")),
          draw_kinds_(strs(draw_kinds, 7, "7 draw kinds")),
          unquote_(py::reinterpret_borrow<py::object>(unquote)),
          shuffle_("shuffle"),
          gold_("gold"),
          rc_("rc"),
          lazy_classes_(std::make_shared<const LazyClasses>(LazyClasses{draw_, discard_})) {}

    // (game values, players, pre_game, hands, the last owari or None), or None if declined.
    // ``lazy``: each hand's events a HandEvents (hand_events.hpp), its draws and
    // discards kept as records, not objects; pre_game stays a tuple.
    py::object build(const py::bytes& data, int max_elements, std::size_t max_attribute_length,
                     bool lazy) const {
        const std::string_view view(data);
        Limits limits;
        limits.max_elements = max_elements;
        limits.max_attribute_length = max_attribute_length;
        Tables tables;
        GameTables& g = tables.get();
        bool ok;
        {
            py::gil_scoped_release release;
            ok = read_mjlog(view, &g, nullptr, limits);
        }
        if (!ok) return py::none();
        // a lazy event's ints are borrowed from the cache (lazy_int): every tile id in it
        std::size_t largest = lazy ? 255 : 0;
        if (!g.events.seq.empty())
            largest = std::max(largest, std::size_t(*std::max_element(g.events.seq.begin(),
                                                                      g.events.seq.end())));
        if (lazy || !g.events.seq.empty()) cache_ints(largest);
        const std::vector<py::object> owaris = make_owaris(g);
        const std::vector<py::object> melds = make_melds(g);
        const std::vector<py::object> wins = make_wins(g, melds, owaris);
        const std::vector<py::object> draws = make_draws(g, owaris);
        const auto n_hands = static_cast<Py_ssize_t>(g.hands.size());
        const Events& e = g.events;
        // events per hand (slot 0: before the first hand), then each tuple filled
        // (and, lazy, the objects each holds: the events neither draws nor discards)
        std::vector<Py_ssize_t> fill(static_cast<std::size_t>(n_hands) + 1, 0);
        std::vector<Py_ssize_t> others(fill.size(), 0);
        for (std::size_t i = 0; i < e.size(); ++i) {
            const std::int32_t h = e.hand[i];
            check(h >= -1 && h < n_hands, "event hand");
            ++fill[static_cast<std::size_t>(h + 1)];
            others[static_cast<std::size_t>(h + 1)] += e.kind[i] != kDraw && e.kind[i] != kDiscard;
        }
        std::vector<py::object> groups;
        groups.reserve(fill.size());
        for (std::size_t slot = 0; slot < fill.size(); ++slot) {
            if (lazy && slot > 0)
                groups.push_back(own(reinterpret_cast<PyObject*>(
                    new_hand_events(fill[slot], others[slot], lazy_classes_))));
            else
                groups.push_back(own(PyTuple_New(fill[slot])));
            fill[slot] = 0;
            others[slot] = 0;
        }
        for (std::size_t i = 0; i < e.size(); ++i) {
            const auto slot = static_cast<std::size_t>(e.hand[i] + 1);
            if (!lazy || slot == 0) {
                PyTuple_SET_ITEM(groups[slot].ptr(), fill[slot]++, event(g, i, melds, wins, draws));
                continue;
            }
            auto* he = reinterpret_cast<HandEventsObject*>(groups[slot].ptr());
            EventRecord& r = he->records[fill[slot]++];
            r.seq = e.seq[i];
            r.tile = e.tile[i];
            r.seat = e.seat[i];
            r.tsumogiri = e.tsumogiri[i];
            r.obj = -1;
            if (e.kind[i] == kDraw) {
                r.kind = kLazyDraw;
            } else if (e.kind[i] == kDiscard) {
                r.kind = kLazyDiscard;
            } else {
                r.kind = kLazyOther;
                r.obj = static_cast<std::int32_t>(others[slot]++);
                he->objects[r.obj] = event(g, i, melds, wins, draws);
            }
        }
        py::object hands = own(PyTuple_New(n_hands));
        for (Py_ssize_t h = 0; h < n_hands; ++h)
            PyTuple_SET_ITEM(hands.ptr(), h,
                             hand_log(g, h, groups[static_cast<std::size_t>(h) + 1]));
        py::object last = owaris.empty() ? py::none() : owaris.back();
        return py::make_tuple(game_values(g), players(g), groups[0], hands, last);
    }

private:
    // The seated players (the first ``players`` of the UN list), as
    // replay_audit.parsers.tenhou_xml.columns._players makes them from the raw values.
    py::tuple players(const GameTables& g) const {
        const PlayerList& pl = g.player_list;
        const py::list dan = split(g, pl.dan, to_int), rate = split(g, pl.rate, to_float),
                       sex = split(g, pl.sx, keep), gold = split(g, pl.gold, keep),
                       rc = split(g, pl.rc, keep);
        check(g.players >= 0 && g.players <= 4, "players");
        py::tuple out(g.players);
        for (Py_ssize_t i = 0; i < g.players; ++i) {
            py::list extra;
            if (pl.gold >= 0 && i < PyList_GET_SIZE(gold.ptr()))
                extra.append(py::make_tuple(gold_, gold[i]));
            if (pl.rc >= 0 && i < PyList_GET_SIZE(rc.ptr()))
                extra.append(py::make_tuple(rc_, rc[i]));
            const std::int32_t name = pl.names[i];
            PyTuple_SET_ITEM(out.ptr(), i,
                             player_.make(name < 0 ? PyUnicode_FromString("")
                                                   : unquoted(g.strings[std::size_t(name)],
                                                              unquote_.ptr()),
                                          nth(dan, i), nth(rate, i), nth(sex, i),
                                          PySequence_Tuple(extra.ptr())));
        }
        return out;
    }

    std::vector<py::object> make_owaris(const GameTables& g) const {
        std::vector<py::object> out;
        const Owaris& o = g.owari;
        for (std::size_t i = 0; i < o.size(); ++i) {
            PyObject* points = PyTuple_New(4);
            for (Py_ssize_t s = 0; points != nullptr && s < 4; ++s) {
                PyObject* p = PyFloat_FromDouble(o.points[4 * i + s]);
                if (p == nullptr) Py_CLEAR(points);
                else PyTuple_SET_ITEM(points, s, p);
            }
            out.push_back(own(owari_.make(ints(&o.scores[4 * i], 4), points)));
        }
        return out;
    }

    std::vector<py::object> make_melds(const GameTables& g) const {
        std::vector<py::object> out;
        const Melds& m = g.melds;
        out.reserve(m.size());
        for (std::size_t i = 0; i < m.size(); ++i) {
            check(m.kind[i] >= 0 && m.kind[i] < 6, "meld kind");
            const std::int16_t* tiles = &m.tiles[4 * i];
            Py_ssize_t n = 0;
            for (int t = 0; t < 4; ++t) n += tiles[t] >= 0;
            PyObject* kept = PyTuple_New(n);
            for (Py_ssize_t t = 0, k = 0; kept != nullptr && t < 4; ++t) {
                if (tiles[t] < 0) continue;
                PyObject* v = integer(tiles[t]);
                if (v == nullptr) Py_CLEAR(kept);
                else PyTuple_SET_ITEM(kept, k++, v);
            }
            out.push_back(own(meld_.make(Py_NewRef(meld_kinds_[m.kind[i]].ptr()), kept,
                                           optional(m.called[i]), optional(m.from_seat[i]),
                                           optional(m.added[i]))));
        }
        return out;
    }

    // A span of the pool as a tuple, or ``absent`` (a new reference) when it has none.
    static PyObject* span(const GameTables& g, const Span& s, PyObject* absent) {
        if (s.length < 0) return absent;
        Py_DECREF(absent);
        check(s.offset >= 0 && std::size_t(s.offset) + std::size_t(s.length) <= g.pool.size(),
              "span");
        return ints(g.pool.data() + s.offset, s.length);
    }

    static PyObject* span_pairs(const GameTables& g, const Span& s) {
        if (s.length < 0) return none();
        check(s.length % 2 == 0 && s.offset >= 0 &&
                  std::size_t(s.offset) + std::size_t(s.length) <= g.pool.size(),
              "pairs");
        return pairs(g.pool.data() + s.offset, s.length);
    }

    static PyObject* result_owari(const std::vector<py::object>& owaris, std::int32_t row) {
        if (row < 0) return none();
        check(std::size_t(row) < owaris.size(), "owari row");
        return Py_NewRef(owaris[std::size_t(row)].ptr());
    }

    std::vector<py::object> make_wins(const GameTables& g, const std::vector<py::object>& melds,
                                      const std::vector<py::object>& owaris) const {
        std::vector<py::object> out;
        const Agaris& a = g.agari;
        PyObject* empty = PyTuple_New(0);
        py::object hold = own(empty);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const Span& ms = a.melds[i];
            check(ms.length >= 0 && std::size_t(ms.offset) + std::size_t(ms.length) <= melds.size(),
                  "win melds");
            const bool chips = a.has_chips[i] != 0;
            const Span& yaku = a.yaku[i];
            PyObject* yaku_pairs = yaku.length < 0 ? Py_NewRef(empty) : span_pairs(g, yaku);
            out.push_back(own(win_.make(
                integer(a.seq[i]), integer(a.who[i]), integer(a.from_who[i]),
                span(g, a.hai[i], Py_NewRef(empty)),
                refs(melds, std::size_t(ms.offset), std::size_t(ms.length)), integer(a.machi[i]),
                integer(a.fu[i]), integer(a.points[i]), integer(a.limit[i]), yaku_pairs,
                span(g, a.yakuman[i], Py_NewRef(empty)), span(g, a.dora[i], Py_NewRef(empty)),
                span(g, a.ura[i], Py_NewRef(empty)), integer(a.honba[i]), integer(a.sticks[i]),
                ints(&a.scores[4 * i], 4), ints(&a.deltas[4 * i], 4), optional(a.pao[i]),
                chips ? ints(&a.chips[4 * i], 4) : none(),
                chips ? ints(&a.chip_deltas[4 * i], 4) : none(), span_pairs(g, a.chip[i]),
                a.ratio[i] < 0 ? none() : text(g.strings[std::size_t(a.ratio[i])]),
                result_owari(owaris, a.owari[i]), none(), Py_NewRef(empty))));
        }
        return out;
    }

    std::vector<py::object> make_draws(const GameTables& g,
                                       const std::vector<py::object>& owaris) const {
        std::vector<py::object> out;
        const Ryuukyokus& r = g.ryuukyoku;
        for (std::size_t i = 0; i < r.size(); ++i) {
            check(r.kind[i] >= 0 && r.kind[i] < 7, "draw kind");
            const bool chips = r.has_chips[i] != 0;
            out.push_back(own(drawn_.make(
                integer(r.seq[i]), Py_NewRef(draw_kinds_[r.kind[i]].ptr()), integer(r.honba[i]),
                integer(r.sticks[i]), ints(&r.scores[4 * i], 4), ints(&r.deltas[4 * i], 4),
                shown(g, &r.shown[4 * i]), chips ? ints(&r.chips[4 * i], 4) : none(),
                chips ? ints(&r.chip_deltas[4 * i], 4) : none(),
                r.ratio[i] < 0 ? none() : text(g.strings[std::size_t(r.ratio[i])]),
                result_owari(owaris, r.owari[i]), none())));
        }
        return out;
    }

    // ((seat, tiles), ...) for the seats whose hand a RYUUKYOKU shows.
    static PyObject* shown(const GameTables& g, const Span* spans) {
        Py_ssize_t n = 0;
        for (int s = 0; s < 4; ++s) n += spans[s].length >= 0;
        PyObject* out = PyTuple_New(n);
        for (Py_ssize_t s = 0, k = 0; out != nullptr && s < 4; ++s) {
            if (spans[s].length < 0) continue;
            PyObject* pair = PyTuple_New(2);
            PyObject* seat = integer(s);
            PyObject* tiles = span(g, spans[s], none());
            if (pair == nullptr || seat == nullptr || tiles == nullptr) {
                Py_XDECREF(pair);
                Py_XDECREF(seat);
                Py_XDECREF(tiles);
                Py_CLEAR(out);
                break;
            }
            PyTuple_SET_ITEM(pair, 0, seat);
            PyTuple_SET_ITEM(pair, 1, tiles);
            PyTuple_SET_ITEM(out, k++, pair);
        }
        return out;
    }

    // Event ``i`` of the events table (a new reference; the results are the shared ones).
    PyObject* event(const GameTables& g, std::size_t i, const std::vector<py::object>& melds,
                    const std::vector<py::object>& wins,
                    const std::vector<py::object>& draws) const {
        const Events& e = g.events;
        const long seq = e.seq[i], seat = e.seat[i];
        const std::int32_t ref = e.ref[i];
        switch (e.kind[i]) {
            case kDraw:
                return draw_.make(integer(seq), integer(seat), integer(e.tile[i]));
            case kDiscard:
                return discard_.make(integer(seq), integer(seat), integer(e.tile[i]),
                                     Py_NewRef(e.tsumogiri[i] == 1 ? Py_True : Py_False));
            case kCall:
                check(ref >= 0 && std::size_t(ref) < melds.size(), "call meld");
                return call_.make(integer(seq), integer(seat), Py_NewRef(melds[ref].ptr()));
            case kRiichiDeclare:
                return declare_.make(integer(seq), integer(seat));
            case kRiichiAccept:
                check(ref < 0 || 4 * std::size_t(ref) + 4 <= g.reach_scores.size(), "REACH ten");
                return accept_.make(integer(seq), integer(seat),
                                    ref < 0 ? none() : ints(&g.reach_scores[4 * std::size_t(ref)], 4),
                                    Py_NewRef(Py_False));
            case kNewDora:
                return dora_.make(integer(seq), integer(e.tile[i]));
            case kDisconnect:
                return bye_.make(integer(seq), integer(seat));
            case kReconnect: {
                check(ref >= 0 && std::size_t(ref) < g.strings.size(), "UN name");
                return un_.make(integer(seq), integer(seat),
                                unquoted(g.strings[std::size_t(ref)], unquote_.ptr()));
            }
            case kAgari:
                check(ref >= 0 && std::size_t(ref) < wins.size(), "AGARI row");
                return Py_NewRef(wins[std::size_t(ref)].ptr());
            case kRyuukyoku:
                check(ref >= 0 && std::size_t(ref) < draws.size(), "RYUUKYOKU row");
                return Py_NewRef(draws[std::size_t(ref)].ptr());
            default:
                check(false, "event kind");
                return nullptr;
        }
    }

    PyObject* hand_log(const GameTables& g, Py_ssize_t index, const py::object& events) const {
        const Hands& h = g.hands;
        const auto i = std::size_t(index);
        PyObject* haipai = PyTuple_New(4);
        for (Py_ssize_t s = 0; haipai != nullptr && s < 4; ++s) {
            const std::int16_t* deal = &h.haipai[52 * i + 13 * std::size_t(s)];
            PyObject* tiles = deal[0] >= 0 ? ints(deal, 13) : PyTuple_New(0);
            if (tiles == nullptr) Py_CLEAR(haipai);
            else PyTuple_SET_ITEM(haipai, s, tiles);
        }
        PyObject* extra = nullptr;
        if (h.shuffle[i] < 0) {
            extra = PyTuple_New(0);
        } else {
            check(std::size_t(h.shuffle[i]) < g.strings.size(), "INIT shuffle");
            PyObject* value = text(g.strings[std::size_t(h.shuffle[i])]);
            PyObject* pair = value == nullptr ? nullptr : PyTuple_Pack(2, shuffle_.ptr(), value);
            Py_XDECREF(value);
            extra = pair == nullptr ? nullptr : PyTuple_Pack(1, pair);
            Py_XDECREF(pair);
        }
        return hand_.make(integer(index), integer(h.seq[i]), integer(h.round_index[i]),
                          integer(h.honba[i]), integer(h.sticks[i]), integer(h.dealer[i]),
                          ints(&h.scores[4 * i], 4), haipai, integer(h.dora_indicator[i]),
                          ints(&h.dice[2 * i], 2), Py_NewRef(events.ptr()),
                          span(g, h.chips[i], none()), extra);
    }

    SlotClass draw_, discard_, call_, declare_, accept_, dora_, bye_, un_, win_, drawn_, owari_,
        hand_, meld_, player_;
    std::vector<py::object> meld_kinds_, draw_kinds_;
    py::object unquote_;
    py::str shuffle_, gold_, rc_;
    std::shared_ptr<const LazyClasses> lazy_classes_;
};

}  // namespace

py::dict game_values(const GameTables& g) {
    py::dict game;
    game["players"] = g.players;
    game["tile_set"] = g.tile_set;
    game["go_type"] = g.has_go ? py::object(py::int_(g.go_type)) : py::object(py::none());
    game["lobby"] = g.has_lobby ? py::object(py::int_(g.lobby)) : py::object(py::none());
    game["seed"] = ref_or_none(g, g.seed);
    py::list extra;
    for (const auto& kv : g.meta_extra) extra.append(py::make_tuple(kv.first, kv.second));
    game["extra"] = extra;
    const PlayerList& pl = g.player_list;
    py::list names;
    for (std::int32_t n : pl.names) names.append(ref_or_none(g, n));
    game["names"] = names;
    game["dan"] = ref_or_none(g, pl.dan);
    game["rate"] = ref_or_none(g, pl.rate);
    game["sx"] = ref_or_none(g, pl.sx);
    game["gold"] = ref_or_none(g, pl.gold);
    game["rc"] = ref_or_none(g, pl.rc);
    return game;
}

void bind_game_builder(py::module_& m) {
    py::class_<GameBuilder>(
        m, "GameBuilder",
        "Builds a Game's parts from one mjlog document in one pass: ``build(data,\n"
        "max_elements, max_attribute_length, lazy=False)`` gives (game values, players,\n"
        "pre_game, hands, the last Owari or None), or None where read_mjlog declines the\n"
        "document; with ``lazy`` each hand's events are a HandEvents.  Given the\n"
        "model's classes once (each checked to have exactly the slots it fills), the\n"
        "MeldKind members and draw kinds in code order, and urllib's unquote.")
        .def(py::init<py::handle, py::handle, py::handle, py::handle, py::handle, py::handle,
                      py::handle, py::handle, py::handle, py::handle, py::handle, py::handle,
                      py::handle, py::handle, const py::sequence&, const py::sequence&,
                      py::handle>(),
             py::kw_only(), py::arg("draw"), py::arg("discard"), py::arg("call"),
             py::arg("riichi_declare"), py::arg("riichi_accept"), py::arg("new_dora"),
             py::arg("disconnect"), py::arg("reconnect"), py::arg("win"), py::arg("drawn"),
             py::arg("owari"), py::arg("hand"), py::arg("meld"), py::arg("player"),
             py::arg("meld_kinds"),
             py::arg("draw_kinds"), py::arg("unquote"))
        .def("build", &GameBuilder::build, py::arg("data"), py::arg("max_elements"),
             py::arg("max_attribute_length"), py::kw_only(), py::arg("lazy") = false);
    add_hand_events_type(m);
}

}  // namespace replay_audit::core::mjlog
