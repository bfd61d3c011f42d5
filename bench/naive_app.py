"""The yardstick of bench/cli.py (issue 29): a naive typer + pydantic app doing what a recorded
step does, written the obvious way.

It keeps one campaign as three nested pydantic models (a campaign holding Troupers holding
their dice) in one SQLite row, and each `wagon` run opens the database, reads the row, validates
it into the models, changes one field, dumps and writes it back in a transaction with a full
sync (``PRAGMA synchronous=FULL``) and prints one line. No caching, no lazy import, no trick:
what a recording `blood` command is measured against.

Usage: python bench/naive_app.py init DB | python bench/naive_app.py wagon DB [--coins N]
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import typer
from pydantic import BaseModel, ConfigDict, Field


class Die(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    colour: str
    faces: list[int] = Field(default_factory=list)


class Trouper(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    vigor: int = 0
    dice: list[Die] = Field(default_factory=list)


class Campaign(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    coins: int = 0
    troupers: list[Trouper] = Field(default_factory=list)


app = typer.Typer(add_completion=False)


def connect(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


@app.command()
def init(db: Path) -> None:
    """Create the database with one campaign of four Troupers."""
    troupers = [
        Trouper(name=n, vigor=3, dice=[Die(colour=c, faces=[1, 2, 3, 4, 5, 6]) for c in "RGB"])
        for n in ("aurel", "ioana", "petru", "zora")
    ]
    conn = connect(db)
    with conn:
        conn.execute("CREATE TABLE IF NOT EXISTS campaign (id INTEGER PRIMARY KEY, doc TEXT)")
        conn.execute(
            "INSERT OR REPLACE INTO campaign VALUES (1, ?)",
            (Campaign(name="naive", troupers=troupers).model_dump_json(),),
        )
    conn.close()


@app.command()
def wagon(db: Path, coins: int = typer.Option(1, help="coins to add")) -> None:
    """Read the campaign, validate it, add coins, write it back (full sync), say so."""
    conn = connect(db)
    with conn:
        (doc,) = conn.execute("SELECT doc FROM campaign WHERE id = 1").fetchone()
        campaign = Campaign.model_validate_json(doc)
        campaign = campaign.model_copy(update={"coins": campaign.coins + coins})
        conn.execute("UPDATE campaign SET doc = ? WHERE id = 1", (campaign.model_dump_json(),))
    conn.close()
    typer.echo(f"{campaign.name}: {campaign.coins} coins")


if __name__ == "__main__":
    app()
