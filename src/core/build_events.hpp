// The Game's parts built straight from the mjlog reader's tables (game.hpp), in one
// pass: every event, result, meld, final-scores line and hand of
// replay_audit.model.events made here, so the Python side only adds the game's
// meta and players (replay_audit/parsers/tenhou_xml/from_columns.py).
//
// Each value is a frozen slotted dataclass, made as the Python reader makes its draws
// (``object.__new__``, then every slot set): GameBuilder checks at construction that
// each class it is given has exactly the slots it fills, in field order, so a change
// to events.py fails loudly at import instead of leaving a field unset.
#pragma once

#include <pybind11/pybind11.h>

#include "game.hpp"

namespace replay_audit::core::mjlog {

// The game-level values of ``g`` (players, GO, seed, extras, the raw UN values), the
// ``game`` dict of ``_core.read_mjlog``.
pybind11::dict game_values(const GameTables& g);

// Adds ``GameBuilder`` to the module (its documentation is there).
void bind_game_builder(pybind11::module_& m);

}  // namespace replay_audit::core::mjlog
