"""`blood end ...`: the End of the Night and the step into the next game; the recorded steps
are made of cli/end_steps.py ``RECORDERS``."""

from __future__ import annotations

from blood_companion.cli import session
from blood_companion.cli.common import JsonOpt, add_recorder, command_group, print_json
from blood_companion.cli.end_steps import RECORDERS, _doc, show_rewards

end_app, register = command_group("end")


def end_next(as_json: JsonOpt = False) -> None:
    """What the table does now at the End of the Night, with the choices."""
    with session.open_session() as store:
        if as_json:
            print_json(_doc(store, None))
        else:
            show_rewards(store.state, store.catalog)


add_recorder(end_app, *RECORDERS[0])
end_app.command("next")(end_next)
for _step in RECORDERS[1:]:
    add_recorder(end_app, *_step)
