"""The games the table hosts: one package each, registered in `engine.games.registry`."""
