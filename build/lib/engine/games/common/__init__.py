"""What the pure games at the table (Guess What!, Hues and Cues) share: their working context,
the commands and events every game takes and gives, the table adapter and the rules of seats.

Each game keeps its own models, phases and rules, and re-exports from its own modules what it
takes from here, so `engine.games.<game>.commands.Join` and the like stay where they were.
"""
