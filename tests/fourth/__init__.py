"""Tally, a made-up fourth game registered from these folders alone: the table must host it
without a shared module knowing of it."""
