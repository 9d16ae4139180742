// The end of a game for the auditor's one call (hand_audit.cpp): whether the rules end
// the game after a hand (scoring/flow.py::_end_reason, auditing/base.py::_expected_next)
// and whether a recorded final line agrees with the final points of the log's one
// reading (scoring/final.py::final_points in its integer count).  The Python code is
// the reference (auditing/chain.py::_check_game_end); tests/test_core_game_end.py holds
// the two to each other over the shared corpus.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

namespace replay_audit::core {

// The rules of a game's length and flow (auditing/game.py::HandsContext's share of a
// RuleSet and the log's hanchan flag).
struct FlowRules {
    std::int64_t players = 4, max_hands = 0, points_to_end = 0, extension_winds = 1;
    bool renchan_on_win = true, renchan_on_tenpai = true, bust = true, west_extension = true,
         stops_all_last = true, stops_on_tenpai = true, hanchan = true;
};

// How a hand ended, as the flow reads it (scoring/flow.py::HandOutcome with the hand's
// computed round and dealer, and its index in the log for ``max_hands``).
struct FlowEnd {
    std::int64_t index = 0, round_index = 0, dealer = 0;
    bool won = false, dealer_won = false, abortive = false, dealer_tenpai = false;
};

// scoring/flow.py::dealer_keeps_deal.
bool dealer_keeps(const FlowRules& r, const FlowEnd& e);

// auditing/base.py::_expected_next is None: the rules end the game after the hand that
// ended in ``e`` (``max_hands`` reached, or scoring/flow.py::_end_reason gives a reason),
// ``scores`` the scores after it.  Throws Declined for a dealer outside the seats.
bool game_over_after(const FlowRules& r, const FlowEnd& e, const std::vector<std::int64_t>& scores);

// Whether the recorded final line ``owari`` (model.events.Owari) is what
// auditing/chain.py::_check_final finds nothing to say about under ``final`` (a
// scoring.final_core.FinalRule, the log's one reading): the final scores are the last
// ``scores`` plus ``sticks_left`` riichi sticks to the top, and no seat's final points is
// more than 0.05 off the computed.  False for anything else, and for what the core
// does not read (then the Python code checks the line).  Throws Declined, never a
// Python error, where a value is not of the kind it reads.
bool final_line_agrees(PyObject* final, PyObject* owari, const std::vector<std::int64_t>& scores,
                       std::int64_t sticks_left);

// final_points(scores, sticks_left, final): registered on replay_audit._core by module.cpp.
void def_final_points(pybind11::module_& m);

}  // namespace replay_audit::core
