"""Automatic procedures of duel.md §8, one module per procedure family; ``settle`` (§8.1) drives them."""
