"""Search bots: determinisation of a seat's view and information-set Monte Carlo tree search over it."""
