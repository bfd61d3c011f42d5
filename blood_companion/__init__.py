"""Blood Companion: a command-line companion for the board game Blood."""

__version__ = "0.1.0"
