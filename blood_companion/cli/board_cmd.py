"""`blood board`: the board of the selected campaign; `--serve` shows it live on every device.

The page (``cli/board_serve.py``) reads the status document (``view_docs.status_doc``) and
follows every step any `blood` command records; the laptop stays the only writer."""

from __future__ import annotations

import signal
import sys
import threading
from typing import Annotated, Any

import typer

from blood_companion.cli import session
from blood_companion.cli.board_doc import served_doc
from blood_companion.cli.board_serve import Board, BoardServer, PortInUse, save_head
from blood_companion.cli.common import JsonOpt, print_json, stderr
from blood_companion.cli.settings import current, using
from blood_companion.cli.status_cmd import show
from blood_companion.cli.summaries import SUMMARIES
from blood_companion.cli.view_docs import status_doc
from blood_companion.errors import BloodError, UsageError
from blood_companion.store import CampaignStore
from blood_companion.store.saves import board_token, save_path

DEFAULT_PORT = 8765


def register(app: typer.Typer) -> None:
    app.command("board", short_help=SUMMARIES["board"])(board)


def board(
    serve: Annotated[bool, typer.Option("--serve",
        help="Serve the board as a live page (until Ctrl-C).")] = False,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="With --serve: listen on the local network too; the URL carries a secret "
            "token (requests without it are refused).",
        ),
    ] = False,
    port: Annotated[
        int,
        typer.Option("--port", min=0, max=65535, metavar="N",
                     help=f"With --serve: the port (default {DEFAULT_PORT}; 0 picks a free one)."),
    ] = DEFAULT_PORT,
    new_token: Annotated[
        bool,
        typer.Option("--new-token",
                     help="With --serve --lan: replace the campaign's kept token (every phone "
                     "then needs the new address)."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """The board of the campaign: the same view as `blood status`.

    With --serve, a live read-only page of it for every device at the table: it follows each
    step any `blood` command records, within a second. It listens on 127.0.0.1 (this
    computer) unless --lan; with --lan, open the printed URL (it carries the token) on each
    phone or tablet on the same network; its token is kept with the campaign (in the saves
    folder, readable by you only), so an open page comes back live when the server restarts.
    --new-token replaces it. Ctrl-C stops it."""
    if new_token and not (serve and lan):
        raise UsageError("--new-token goes with --serve --lan",
                         hint="blood board --serve --lan --new-token")
    if not serve:
        if lan:
            raise UsageError("--lan goes with --serve", hint="blood board --serve --lan")
        with session.open_session() as store:
            doc = status_doc(store)
        show(doc, as_json)
        if not as_json:
            stderr.print("Live on every device: blood board --serve (--lan for phones).",
                         highlight=False, markup=False)
        return
    server = _server(port, lan, new_token)
    _announce(server, as_json)
    _serve(server)


def _server(port: int, lan: bool, new_token: bool = False) -> BoardServer:
    """The server of the selected campaign's board, listening (not serving yet)."""
    with session.open_session() as store:  # a campaign that does not exist stops here
        saves_dir, name = store.saves_dir, store.name
        first = served_doc(store)
    settings = current()
    loaded = [first]

    def load() -> dict[str, Any]:
        if loaded:  # the document built above, for the first look
            return loaded.pop()
        with using(settings), CampaignStore.open(saves_dir, name, session.catalog) as opened:
            return served_doc(opened)

    token = None
    if lan:
        try:
            token = board_token(saves_dir, name, new=new_token)
        except OSError as exc:
            stderr.print(f"Note: the board's token cannot be kept in {saves_dir} "
                         f"({exc.strerror or exc}); after a restart every phone needs the new "
                         "address.", highlight=False, markup=False)
    board = Board(load, save_head(save_path(saves_dir, name)))
    try:
        server = BoardServer(board, port=port, lan=lan, token=token)
    except PortInUse as exc:
        why = exc.strerror or "cannot listen there"
        raise BloodError(f"port {port} cannot be used: {why}",
                         hint="another program listens there? `--port 0` picks a free one"
                         ) from None
    server.start_watching()
    return server


def _announce(server: BoardServer, as_json: bool) -> None:
    doc = server.board.current()[1] or {}
    name = str(doc.get("name", ""))
    part = doc.get("night") or doc.get("day") or doc.get("summary") or {}
    ids = [str(t["trouper"]) for t in part.get("troupers", [])]
    if as_json:
        print_json({"url": server.url, "port": server.port, "lan": server.lan, "campaign": name})
        return
    where = "every device on this network" if server.lan else "this computer"
    out = sys.stdout
    out.write(f"The board of {name!r}, live for {where}:\n\n    {server.url}\n\n")
    if server.lan:
        out.write("Open this address on each phone or tablet (it carries the board's secret "
                  "token; anyone with it can watch, nobody can play), or scan it:\n\n")
        out.write(_qr(server.url))
    if ids:
        join = "&" if "?" in server.url else "?"
        out.write(f"Your own Trouper first: add {join}trouper=ID to the address "
                  f"({', '.join(ids)}).\n")
    out.write("Ctrl-C stops serving.\n")
    out.flush()


def _qr(url: str) -> str:
    """The URL as a QR code of terminal lines (cli/qr.py), or a line saying why not."""
    from blood_companion.cli.qr import lines

    try:
        return "\n".join("    " + line for line in lines(url)) + "\n\n"
    except ValueError:
        return "(the address is too long for a QR code: type it)\n"


def _serve(server: BoardServer) -> None:
    """Serve until Ctrl-C or SIGTERM; every thread and connection is closed on the way out."""
    main = threading.current_thread() is threading.main_thread()
    previous: Any = None
    if main:
        def stop(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGTERM, stop)
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    stderr.print("Stopped serving the board.", highlight=False, markup=False)
