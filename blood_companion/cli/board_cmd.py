"""`blood board`: the board of the selected campaign; `--serve` serves it to every phone at
the table, one seat per Trouper (issue 42; the contract: docs/board-api.md).

The server (``cli/board_serve.py``, ``cli/board_app.py``) reads the status document
(``view_docs.status_doc``) and `blood play`'s questions, and records the answers the seats send
through `blood play`'s own walker and recorder; it follows every step any `blood` command
records. The laptop (`blood play`, `blood table`) stays the table's own seat."""

from __future__ import annotations

import json
import signal
import sys
import threading
from typing import Any

import typer

from blood_companion.cli import session
from blood_companion.cli.common import declare_command, stderr
from blood_companion.cli.flags import JSON, Opt
from blood_companion.cli.settings import current
from blood_companion.cli.status_cmd import show
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.view_docs import status_doc
from blood_companion.errors import BloodError, UsageError

DEFAULT_PORT = 8765

OPTIONS = (
    Opt("serve", "--serve", kind="flag", default=False,
        help="Serve the board to every phone at the table, one seat per Trouper (until Ctrl-C)."),
    Opt("lan", "--lan", kind="flag", default=False,
        help="With --serve: listen on the local network too (else this computer only); every "
        "address then carries its seat's token, and a QR code is printed for each."),
    Opt("port", "--port", kind="int", default=DEFAULT_PORT, min=0, max=65535, metavar="N",
        help=f"With --serve: the port (default {DEFAULT_PORT}; 0 picks a free one)."),
    Opt("new_tokens", "--new-tokens", kind="flag", default=False,
        help="With --serve: replace every seat's token (each phone then needs its new address)."),
    JSON,
)


def register(app: typer.Typer) -> None:
    declare_command(app, "board", *OPTIONS, short_help=SUMMARIES["board"])(board)


def board(serve: bool, lan: bool, port: int, new_tokens: bool, as_json: bool) -> None:
    """The board of the campaign: the same view as `blood status`.

    With --serve, every player plays from their own phone: one address per Trouper (its
    seat: that Trouper's questions, the table's questions, its own hand) and one to watch.
    Each answer is recorded as `blood play` records it; an answer to a question somebody
    answered first is refused, saying who. The laptop (`blood play`, `blood table`) stays the
    table's own seat; undo and redo are the laptop's and the Leader's.

    It listens on 127.0.0.1 (this computer) unless --lan. The seats' tokens are kept with the
    campaign (in the saves folder, readable by you only), so an open page comes back live
    when the server restarts; --new-tokens replaces them. With --json, one line:
    {"url", "watch", "seats": {TROUPER: URL}}. Ctrl-C stops it. The contract scripts use:
    docs/board-api.md."""
    if new_tokens and not serve:
        raise UsageError("--new-tokens goes with --serve",
                         hint="blood board --serve --new-tokens")
    if not serve:
        if lan:
            raise UsageError("--lan goes with --serve", hint="blood board --serve --lan")
        with session.open_session() as store:
            doc = status_doc(store)
        show(doc, as_json)
        if not as_json:
            stderr.print("Every phone plays its seat: blood board --serve (--lan for phones).",
                         highlight=False, markup=False)
        return
    served = _served(port, lan, new_tokens)
    try:
        _announce(served, as_json)
        _serve(served)
    finally:
        served.table.close()


class Served:
    """The table served, its listening socket and its addresses."""

    def __init__(self, table: Any, sock: Any, lan: bool) -> None:
        from blood_companion.cli.board_serve import lan_address

        self.table, self.sock, self.lan = table, sock, lan
        self.port = int(sock.getsockname()[1])
        host = lan_address() if lan else "127.0.0.1"
        self.url = f"http://{host}:{self.port}/"
        self.hosts = None if lan else frozenset(
            f"{h}:{self.port}" for h in ("127.0.0.1", "localhost"))

    def seat_url(self, token: str) -> str:
        return f"{self.url}?seat={token}"


def _served(port: int, lan: bool, new_tokens: bool = False) -> Served:
    """The selected campaign's table, listening (not serving yet)."""
    from blood_companion.cli.board_serve import PortInUse, Table, listen
    from blood_companion.store.seats import Seats, _token, seat_tokens

    with session.open_session() as store:  # a campaign that does not exist stops here
        saves_dir, name = store.saves_dir, store.name
        ids = [t.trouper for t in store.state.troupers]
    try:
        tokens = seat_tokens(saves_dir, name, ids, new=new_tokens)
    except OSError as exc:
        stderr.print(f"Note: the seats' tokens cannot be kept in {saves_dir} "
                     f"({exc.strerror or exc}); after a restart every phone needs its new "
                     "address.", highlight=False, markup=False)
        tokens = Seats(_token(), {t: _token() for t in ids})
    table = Table(saves_dir, name, current(), tokens, lan=lan)
    try:
        table.first_view()
        sock = listen(port, lan)
    except PortInUse as exc:
        table.close()
        why = exc.strerror or "cannot listen there"
        raise BloodError(f"port {port} cannot be used: {why}",
                         hint="another program listens there? `--port 0` picks a free one"
                         ) from None
    except BaseException:
        table.close()
        raise
    return Served(table, sock, lan)


def _announce(served: Served, as_json: bool) -> None:
    table = served.table
    view = table.view
    names = view.names if view is not None else {}
    watch = served.seat_url(table.seats.watch)
    seats = {t: served.seat_url(tok) for t, tok in table.seats.troupers.items()}
    out = sys.stdout
    if as_json:  # one line, flushed now: scripts read it while the server runs
        out.write(json.dumps({"ok": True, "url": served.url, "watch": watch, "seats": seats,
                              "port": served.port, "lan": served.lan,
                              "campaign": table.name}) + "\n")
        out.flush()
        return
    where = "every device on this network" if served.lan else "this computer"
    shown = watch if served.lan else served.url  # on 127.0.0.1 the bare address watches
    out.write(f"The board of {table.name!r}, live for {where}. To watch it (no answers):\n\n"
              f"    {shown}\n\n")
    if served.lan:
        out.write(_qr(shown))
    out.write("Each player opens their own seat's address on their phone (it carries the "
              "seat's secret token: keep it to them):\n\n")
    for trouper, url in seats.items():
        out.write(f"  {names.get(trouper, trouper)}:\n    {url}\n")
        if served.lan:
            out.write("\n" + _qr(url))
    out.write("\nThe laptop stays the table's own seat (`blood play`, `blood table`); undo and "
              "redo are the laptop's and the Leader's. Ctrl-C stops serving.\n")
    out.flush()


def _qr(url: str) -> str:
    """The URL as a QR code of terminal lines (cli/qr.py), or a line saying why not."""
    from blood_companion.cli.qr import lines

    try:
        return "\n".join("    " + line for line in lines(url)) + "\n\n"
    except ValueError:
        return "    (the address is too long for a QR code: type it)\n"


def _serve(served: Served) -> None:
    """Serve until Ctrl-C or SIGTERM; every stream and connection is closed on the way out."""
    from blood_companion.cli.board_app import serve

    main = threading.current_thread() is threading.main_thread()
    previous: Any = None
    if main:
        def stop(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGTERM, stop)
    try:
        serve(served.table, served.sock, served.hosts)
    except KeyboardInterrupt:
        pass
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        served.sock.close()
    stderr.print("Stopped serving the board.", highlight=False, markup=False)
