"""Hunch! (SPEC 11.4): the pure, deterministic rules of the game, for the shared table to run.

The table calls `start()` with its seated players, then `apply()` for each command; it renders
`group_view()` and `seat_view()`, and schedules a `Timeout(round_no, phase)` at
`State.deadline` whenever that is set (a step is a phase of a round, a bidding turn, a
placement or a bargain choice). Words and clue categories come from the decks (`deck`).
"""
