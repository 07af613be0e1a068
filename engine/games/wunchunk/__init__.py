"""Wunchunk (SPEC 11.5): the pure, deterministic rules of the game, for the shared table to run."""
