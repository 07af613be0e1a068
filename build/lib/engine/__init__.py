"""Hintrigue's rules: a pure, deterministic engine, and the Redis store that runs it."""
