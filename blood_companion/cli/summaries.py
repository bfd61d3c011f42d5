"""Each top-level command's one-line summary, in the order `blood --help` lists them: the
command modules register with it, and `blood --help` lists from it without importing them."""

from __future__ import annotations

SUMMARIES: dict[str, str] = {
    "roll": "Roll a pool of dice (or type in your physical dice) and count the Triumphs.",
    "odds": "Exact chance that a roll or Test reaches --target, and the Triumphs' distribution.",
    "test": "Take a Test (all seven steps): odds first, then the roll, Re-rolls and the result.",
    "status": "The whole table at a glance: the phase and what comes next.",
    "board": "The board; --serve shows it live on every phone and tablet at the table.",
    "play": (
        "The guided companion: shows the board, asks what happens now, plays the Nemesis and "
        "the Minions, saves every answer. Resumes where you left off."
    ),
    "table": "The whole table on one full-screen view: the board, the log and the question now.",
    "rules": "Rules reference: search, keywords, phases.",
    "report": "One file for a bug report: the campaign's export, versions, data, last log lines.",
    "data": "The data pack: validate it, show cards, export JSON Schema.",
    "campaign": "Campaigns: start one, see it, undo/redo, marks, export/import, verify, recover.",
    "day": "The Day Part: Show (recovery, purchases, selections) and Dusk, step by step.",
    "night": "The Night Part: play cards, resolve them, answer the Nemesis's questions.",
    "end": "End of the Night: clear the board, take the rewards, start the next game.",
    "card": "Cards on demand: any card's text by name or id, the hands at the table.",
}
