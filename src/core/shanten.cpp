// Shanten over 34 counts, as replay_audit/scoring/shanten.py defines it (shanten.hpp).
// Each function below names the Python function it follows; the comments there say why
// the algorithm is what it is.
#include "shanten.hpp"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fastcall.hpp"

namespace replay_audit::core {

namespace shanten_detail {

// One way to split a part (a suit or the honors), the Python's ``_Option``: (groups,
// partials, head, pair_partial, live_single, dead_single), packed five bits a field so
// that options compare, sort and add as integers.  The first three fields add (none
// passes 31: a part holds at most 14 tiles); the last three are 0/1 flags that OR.
using Option = std::uint32_t;

constexpr int kBits = 5;
constexpr Option kFieldMask = (1u << kBits) - 1;
constexpr Option kSums = (1u << (3 * kBits)) - 1;  // groups, partials, head
constexpr Option kFlags = ~kSums;

constexpr int field(Option o, int k) { return static_cast<int>((o >> (kBits * k)) & kFieldMask); }

constexpr Option make_option(int groups, int partials, int head, int pair_partial, int live,
                             int dead) {
    return static_cast<Option>(groups) | static_cast<Option>(partials) << kBits |
           static_cast<Option>(head) << (2 * kBits) |
           static_cast<Option>(pair_partial) << (3 * kBits) |
           static_cast<Option>(live) << (4 * kBits) | static_cast<Option>(dead) << (5 * kBits);
}

// shanten._add: the sums add, the flags or.
constexpr Option add_options(Option a, Option b) {
    return ((a & kSums) + (b & kSums)) | ((a | b) & kFlags);
}

// shanten._pareto's ``beats``: p matches or beats o on every field (more of each, fewer
// dead singles) and is not o.
bool beats(Option p, Option o) {
    if (p == o) return false;
    for (int k = 0; k < 5; ++k) {
        if (field(p, k) < field(o, k)) return false;
    }
    return field(p, 5) <= field(o, 5);
}

// shanten._pareto over ``found`` (sorted and unique on return).
std::vector<Option> pareto_front(std::vector<Option> found) {
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    std::vector<Option> kept;
    for (Option o : found) {
        bool beaten = false;
        for (Option p : found) {
            if (beats(p, o)) {
                beaten = true;
                break;
            }
        }
        if (!beaten) kept.push_back(o);
    }
    return kept;
}

// A part's coded counts (shanten._part_options: ``count + 5`` where the kind is held four
// times), 9 or 7 of them, as the memo's key: base-10 digits, then whether it is honors.
struct Part {
    std::uint8_t c[9];
    int n;
    bool honors;

    std::uint64_t key() const {
        std::uint64_t k = 0;
        for (int i = 0; i < n; ++i) k = k * 10 + c[i];
        return k * 2 + (honors ? 1 : 0);
    }
};

// The memos of shanten._split (by remainder) and shanten._plain_options (by pattern), per
// thread.  Bounded: cleared between hands once past kMemoLimit entries (the Python's
// lru_cache holds 131,072 remainders).  unordered_map keeps references to its values
// across rehashing, so the recursion may hold one while it adds others.
constexpr std::size_t kMemoLimit = 1u << 17;
thread_local std::unordered_map<std::uint64_t, std::vector<Option>> split_memo;
thread_local std::unordered_map<std::uint64_t, std::vector<Option>> plain_memo;

const std::vector<Option>& split_part(Part& part);

// shanten._split's ``rest``: ``unit`` added to every best split of what is left once
// ``take`` (kind, count) pairs are taken from the part.
void add_rest(Part& part, Option unit, std::initializer_list<std::pair<int, int>> take,
              std::vector<Option>& found) {
    for (const auto& [k, m] : take) part.c[k] = static_cast<std::uint8_t>(part.c[k] - m);
    const std::vector<Option>& rest = split_part(part);
    for (Option o : rest) found.push_back(add_options(unit, o));
    for (const auto& [k, m] : take) part.c[k] = static_cast<std::uint8_t>(part.c[k] + m);
}

// shanten._split: the lowest kind still held forms a triplet, a run, a pair (head or
// partial), a two-tile partial run, or is left as a single; the rest split recursively.
std::vector<Option> split_uncached(Part& part) {
    const int n = part.n;
    int i = 0;
    while (i < n && (part.c[i] == 0 || part.c[i] == 5)) ++i;
    if (i >= n) return {make_option(0, 0, 0, 0, 0, 0)};
    const int here = part.c[i] % 5;
    const bool four = part.c[i] >= 5;
    const bool honors = part.honors;
    std::vector<Option> found;
    if (here >= 3) add_rest(part, make_option(1, 0, 0, 0, 0, 0), {{i, 3}}, found);
    if (!honors && i + 2 < n && part.c[i + 1] % 5 && part.c[i + 2] % 5)
        add_rest(part, make_option(1, 0, 0, 0, 0, 0), {{i, 1}, {i + 1, 1}, {i + 2, 1}}, found);
    if (here >= 2 && !(honors && four)) {
        add_rest(part, make_option(0, 0, 1, 0, 0, 0), {{i, 2}}, found);
        if (!four) add_rest(part, make_option(0, 1, 0, 1, 0, 0), {{i, 2}}, found);
    }
    if (!honors) {
        for (int d = 1; d <= 2; ++d) {
            if (i + d < n && part.c[i + d] % 5)
                add_rest(part, make_option(0, 1, 0, 0, 0, 0), {{i, 1}, {i + d, 1}}, found);
        }
    }
    add_rest(part, four ? make_option(0, 0, 0, 0, 0, 1) : make_option(0, 0, 0, 0, 1, 0),
             {{i, 1}}, found);
    found.erase(std::remove_if(found.begin(), found.end(),
                               [](Option o) { return field(o, 2) > 1; }),
                found.end());
    return pareto_front(std::move(found));
}

const std::vector<Option>& split_part(Part& part) {
    const std::uint64_t key = part.key();
    auto it = split_memo.find(key);
    if (it != split_memo.end()) return it->second;
    std::vector<Option> options = split_uncached(part);
    return split_memo.emplace(key, std::move(options)).first->second;
}

// shanten._part_options: kinds held four times coded ``count + 5``.
Part coded_part(const std::uint8_t* counts, int n, bool honors) {
    Part part{};
    part.n = n;
    part.honors = honors;
    for (int i = 0; i < n; ++i) part.c[i] = counts[i] == 4 ? 9 : counts[i];
    return part;
}

// shanten._plain_options: (groups, partials, head) of the options, dominated ones dropped
// (a part of no kind held four times, whose code is its counts).
const std::vector<Option>& plain_options(const std::uint8_t* counts, int n, bool honors) {
    Part part = coded_part(counts, n, honors);
    const std::uint64_t key = part.key();
    auto it = plain_memo.find(key);
    if (it != plain_memo.end()) return it->second;
    std::vector<Option> opts;
    for (Option o : split_part(part)) opts.push_back(o & kSums);
    std::sort(opts.begin(), opts.end());
    opts.erase(std::unique(opts.begin(), opts.end()), opts.end());
    std::vector<Option> kept;
    for (Option o : opts) {
        bool beaten = false;
        for (Option p : opts) {
            if (p != o && field(p, 0) >= field(o, 0) && field(p, 1) >= field(o, 1) &&
                field(p, 2) >= field(o, 2)) {
                beaten = true;
                break;
            }
        }
        if (!beaten) kept.push_back(o);
    }
    return plain_memo.emplace(key, std::move(kept)).first->second;
}

constexpr int kPartLo[4] = {0, 9, 18, 27};
constexpr int kPartLen[4] = {9, 9, 9, 7};

// shanten._plain_regular: the formula when no kind is held four times.
int plain_regular(const std::uint8_t* counts, int groups) {
    const std::vector<Option>* parts[4];
    for (int s = 0; s < 4; ++s) parts[s] = &plain_options(counts + kPartLo[s], kPartLen[s], s == 3);
    int best = 2 * groups;
    for (Option a : *parts[0]) {
        for (Option b : *parts[1]) {
            const Option ab = a + b;
            if (field(ab, 2) > 1) continue;
            for (Option c : *parts[2]) {
                const Option abc = ab + c;
                if (field(abc, 2) > 1) continue;
                for (Option d : *parts[3]) {
                    const Option all = abc + d;
                    const int h = field(all, 2);
                    if (h > 1) continue;
                    const int m = field(all, 0);
                    const int value = 2 * groups - 2 * m - std::min(field(all, 1), groups - m) - h;
                    best = std::min(best, value);
                }
            }
        }
    }
    return best;
}

// The general path of shanten.regular_shanten (some kind held four times).
int corrected_regular(const std::uint8_t* counts, int tiles, int groups) {
    int honor_quads = 0;
    for (int k = 27; k < 34; ++k) honor_quads += counts[k] == 4;
    if (honor_quads && tiles % 3 == 2) --honor_quads;  // a 14-tile hand discards one first
    const std::vector<Option>* parts[4];
    for (int s = 0; s < 4; ++s) {
        Part part = coded_part(counts + kPartLo[s], kPartLen[s], s == 3);
        parts[s] = &split_part(part);
    }
    int best = 2 * groups;
    for (Option a : *parts[0]) {
        for (Option b : *parts[1]) {
            for (Option c : *parts[2]) {
                for (Option d : *parts[3]) {
                    const Option all = add_options(add_options(add_options(a, b), c), d);
                    const int h = field(all, 2);
                    if (h > 1) continue;
                    const int m = field(all, 0);
                    int value = 2 * groups - 2 * m - std::min(field(all, 1), groups - m) - h;
                    if (!h && !field(all, 3) && !field(all, 4) && field(all, 5))
                        value += 1;  // the head's first tile must come from outside
                    if (value > -1) value = std::max(value, honor_quads);
                    best = std::min(best, value);
                }
            }
        }
    }
    return best;
}

// shanten.regular_shanten.
int regular_shanten(const std::uint8_t* counts) {
    int tiles = 0;
    bool any_four = false;
    for (int k = 0; k < 34; ++k) {
        tiles += counts[k];
        any_four = any_four || counts[k] == 4;
    }
    const int groups = tiles / 3;
    return any_four ? corrected_regular(counts, tiles, groups) : plain_regular(counts, groups);
}

constexpr int kOrphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

// shanten.chiitoitsu_shanten: seven *different* pairs.
int chiitoitsu_shanten(const std::uint8_t* counts) {
    int pairs = 0, kinds = 0;
    for (int k = 0; k < 34; ++k) {
        pairs += counts[k] >= 2;
        kinds += counts[k] != 0;
    }
    return 6 - pairs + std::max(0, 7 - kinds);
}

// shanten.kokushi_shanten.
int kokushi_shanten(const std::uint8_t* counts) {
    int held = 0;
    bool paired = false;
    for (int k : kOrphans) {
        held += counts[k] != 0;
        paired = paired || counts[k] >= 2;
    }
    return 13 - held - (paired ? 1 : 0);
}

// Items of an exact list or tuple (nullptr for another type; ``n`` its length).
PyObject* const* sequence_items(PyObject* obj, Py_ssize_t& n) {
    if (PyList_CheckExact(obj)) {
        n = PyList_GET_SIZE(obj);
        return PySequence_Fast_ITEMS(obj);
    }
    if (PyTuple_CheckExact(obj)) {
        n = PyTuple_GET_SIZE(obj);
        return PySequence_Fast_ITEMS(obj);
    }
    return nullptr;
}

// An exact int in [0, limit] read into ``out``; false for anything else (no error set).
bool small_int(PyObject* v, long limit, long& out) {
    if (!PyLong_CheckExact(v)) return false;
    int overflow = 0;
    out = PyLong_AsLongAndOverflow(v, &overflow);
    return !overflow && out >= 0 && out <= limit;
}

int hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

constexpr Py_ssize_t kDealt = 13;

// Counts of one dealt tile id (``id`` outside 0-135 or a fifth tile of a kind: false).
bool count_dealt(long id, std::uint8_t* counts) {
    if (id < 0 || id >= 4 * 34) return false;
    return ++counts[id >> 2] <= 4;
}

// The 13 dealt tiles of ``dealt`` counted: 1 done, 0 not 13 tiles (the Python's None),
// -1 declined.
int read_dealt(PyObject* dealt, std::uint8_t* counts) {
    std::memset(counts, 0, 34);
    if (PyUnicode_CheckExact(dealt)) {
        Py_ssize_t size = 0;
        const char* text = PyUnicode_AsUTF8AndSize(dealt, &size);
        if (text == nullptr) {
            PyErr_Clear();
            return -1;
        }
        if (size != 2 * kDealt) return -1;  // bytes.fromhex also reads spaces: its call
        for (Py_ssize_t i = 0; i < kDealt; ++i) {
            const int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
            if (hi < 0 || lo < 0 || !count_dealt(hi * 16 + lo, counts)) return -1;
        }
        return 1;
    }
    if (PyBytes_CheckExact(dealt)) {
        if (PyBytes_GET_SIZE(dealt) != kDealt) return 0;
        const auto* bytes = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(dealt));
        for (Py_ssize_t i = 0; i < kDealt; ++i) {
            if (!count_dealt(bytes[i], counts)) return -1;
        }
        return 1;
    }
    Py_ssize_t n = 0;
    PyObject* const* items = sequence_items(dealt, n);
    if (items == nullptr) return -1;
    if (n != kDealt) return 0;
    for (Py_ssize_t i = 0; i < n; ++i) {
        long id = 0;
        if (!small_int(items[i], 4 * 34 - 1, id) || !count_dealt(id, counts)) return -1;
    }
    return 1;
}

// Empties the memos when they have grown past their bound (between hands, never while a
// hand holds references into them).
void bound_memos() {
    if (split_memo.size() > kMemoLimit) split_memo.clear();
    if (plain_memo.size() > kMemoLimit) plain_memo.clear();
}

}  // namespace shanten_detail

int hand_shanten(const std::uint8_t* counts) {
    namespace d = shanten_detail;
    d::bound_memos();
    int best = d::regular_shanten(counts);
    int tiles = 0;
    for (int k = 0; k < 34; ++k) tiles += counts[k];
    if (tiles >= 13)
        best = std::min({best, d::chiitoitsu_shanten(counts), d::kokushi_shanten(counts)});
    return best;
}

PyObject* shanten_of_counts(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "shanten(counts) takes one argument");
        return nullptr;
    }
    Py_ssize_t n = 0;
    PyObject* const* items = shanten_detail::sequence_items(args[0], n);
    if (items == nullptr || n != 34) Py_RETURN_NONE;
    std::uint8_t counts[34];
    for (Py_ssize_t k = 0; k < 34; ++k) {
        long v = 0;
        if (!shanten_detail::small_int(items[k], 4, v)) Py_RETURN_NONE;
        counts[k] = static_cast<std::uint8_t>(v);
    }
    try {
        return PyLong_FromLong(hand_shanten(counts));
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

PyObject* start_shanten_of_dealt(PyObject*, PyObject* const* args, Py_ssize_t nargs) noexcept {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "start_shanten(dealt) takes one argument");
        return nullptr;
    }
    std::uint8_t counts[34];
    if (shanten_detail::read_dealt(args[0], counts) != 1) Py_RETURN_NONE;
    try {
        return PyLong_FromLong(hand_shanten(counts));
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

void def_shanten(pybind11::module_& m) {
    add_fastcall<&shanten_of_counts>(m, "shanten",
        "shanten(counts): replay_audit.scoring.shanten.shanten of a list or tuple of 34 ints\n"
        "0-4 (-1 complete, 0 tenpai, ...); None for anything else (the Python answers).");
    add_fastcall<&start_shanten_of_dealt>(m, "start_shanten",
        "start_shanten(dealt): replay_audit.stats.identity.start_shanten of a dealt hand (hex\n"
        "str, bytes, or tile ids); None where the Python gives None and where the core\n"
        "declines (the Python answers).");
}

}  // namespace replay_audit::core
