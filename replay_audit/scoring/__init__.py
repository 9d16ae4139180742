"""Pure scoring: decomposition, yaku, fu, points, payments, settlement."""
