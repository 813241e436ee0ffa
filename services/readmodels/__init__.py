"""Read models: projections of the store's global order, rebuilt from the events at will (the match list and
its rows, the match lifecycle)."""
