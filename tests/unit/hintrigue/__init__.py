"""Hintrigue's own tests: its rules, timers, playthroughs and rooms stored by earlier versions."""
