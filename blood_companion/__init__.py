"""Blood Companion: a command-line companion for the board game Blood."""

__version__ = "0.2.0"
