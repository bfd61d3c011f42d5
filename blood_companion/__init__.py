"""Blood Companion: a command-line companion for the board game Blood."""

__version__ = "0.3.0.dev0"
