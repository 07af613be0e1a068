"""Hues and Cues (SPEC 11.3): pure rules, like every game at the table."""
