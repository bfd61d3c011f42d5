"""Shared fixtures: a private catalog cache and saves folder for every test session; the
fast tier (``python -m pytest -m "not slow"``): the slow tests are listed here, in one place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Never read or write the user's real cache from tests.
os.environ.setdefault("BLOOD_CACHE_DIR", tempfile.mkdtemp(prefix="blood-cache-"))
os.environ.pop("BLOOD_DATA_DIR", None)
# ...nor the cards an owner transcribed into their user data folder (the default overlay).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="blood-userdata-")
os.environ.pop("BLOOD_CAMPAIGN", None)
# A test worker of pytest-xdist starts with COLUMNS=80 and LINES=24 set; the console the app
# makes at import would keep those 80 columns even where a test sets COLUMNS itself. Tests
# run as in one process: the width is the test's COLUMNS, else the app's default.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)
# Two test workers on two cores (and a browser) make generating examples slow now and then:
# how fast hypothesis generates is no behaviour of the app.
settings.register_profile("blood", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("blood")


@pytest.fixture(scope="session")
def catalog():  # type: ignore[no-untyped-def]
    from blood_companion.content.loader import load_catalog

    return load_catalog()


@pytest.fixture()
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "saves"
    monkeypatch.setenv("BLOOD_SAVES_DIR", str(d))
    return d


# --------------------------------------------------------------------------- the fast tier
#
# ``python -m pytest -m "not slow"`` is the inner loop; ``python -m pytest`` (CI, ``.ci/run``)
# runs everything. Slow: what starts processes (the installed ``blood``, servers, a browser,
# killed writers), whole games played end to end, crashes, races, fuzzing and the
# hypothesis-heavy properties. Listed here only, so that no test file carries the marker
# (``@pytest.mark.slow`` on a test also works).

# whole files (or folders), relative to tests/
SLOW_FILES = (
    "e2e/",
    "cli/test_board_serve.py",  # a server per test, a headless browser
    "cli/test_fuzz_commands.py",
    "cli/test_play.py",  # the installed blood play, killed mid-night
    "cli/test_status.py",  # each screen through the installed blood
    "cli/test_play_speed.py",
    "store/test_crash.py",
    "store/test_safety_races.py",
    "store/test_concurrency.py",
    "store/test_properties.py",  # random sequences of steps replayed
)
# single tests (file::name, or file::name[parameters] for one case)
SLOW_TESTS = frozenset({
    "cli/test_campaign_cli.py::test_installed_blood_process",
    "cli/test_cli_conventions_more.py::test_force_color_colours_every_kind_of_command_in_a_pipe",
    "cli/test_cli_conventions_more.py::test_no_color_wins_over_force_color",
    "cli/test_cli_conventions_more.py::test_the_shell_completes_campaign_names",
    "cli/test_cli_conventions_more.py::"
    "test_completion_never_fails_on_a_broken_saves_folder_or_pack",
    "cli/test_conventions.py::test_the_shell_gets_command_names",
    "cli/test_data_cli.py::test_validate_bad_dir_human",
    "cli/test_data_cli.py::test_version_and_help",
    "cli/test_dice_cli.py::test_installed_blood_rolls_and_answers_odds",
    "cli/test_hostile_input.py::test_16_partial_catalog_cache_files_are_cleaned",
    "cli/test_hostile_io.py::test_10_check_folders_of_killed_runs_are_removed",
    "cli/test_hostile_io.py::test_10_temporary_saves_of_killed_runs_are_removed",
    "cli/test_hostile_io.py::test_10_any_control_character_in_a_name_stays_off_the_screen",
    "cli/test_table_view.py::test_without_a_terminal_table_is_refused_and_ends",
    "cli/test_table_view.py::test_other_commands_do_not_import_textual",
    "rules/test_rules_cli.py::test_fast_path_imports_nothing_heavy",
    "rules/test_rules_cli.py::test_console_module_runs",
    "store/test_hostile_store.py::test_6_full_disk_says_the_saves_are_intact",
    "store/test_safety_recover.py::test_24_3_recover_with_little_room_never_falls_back_to_step_1",
    "store/test_safety_recover.py::test_24_2_random_damage_to_derivable_columns_loses_no_step",
    "store/test_safety_import.py::test_24_7_no_forged_wagon_is_accepted",
    "store/test_verify_exact.py::test_canon_text_follows_the_patches",
    "store/test_outlive_change.py::"
    "test_undo_n_gives_the_state_shown_n_steps_before_and_redo_is_identity",
    "test_fileio.py::test_stale_tmp_files_of_dead_processes_are_removed",
    # the longest in-process ones (over ~8 s CPU each): a whole Vlad campaign replayed, every
    # night action tried in every phase, a forged wagon checked against every step
    "store/test_golden_saves.py::test_golden_save_opens_undoes_redoes_records_and_travels"
    "[v0.2.0-vlad]",
    "store/test_safety_import.py::test_24_7_a_forged_wagon_claiming_an_earlier_release_is_refused"
    "[last]",
    "engine/test_interpreter.py::"
    "test_every_night_action_is_refused_outside_its_phases_with_the_state_unchanged",
    # over ~4 s each in the whole suite's --durations (issues 39, 40, 42): a night played in the
    # Textual table, writers racing recover, every question of blood play walked, phones' seats
    "cli/test_table_view.py::test_table_plays_a_night_recording_exactly_what_play_records",
    "cli/test_table_view.py::test_the_panels_at_100x30_side_by_side_and_80x24_stacked",
    "store/test_nothing_lost.py::test_40_1_recover_force_racing_writers_loses_no_acknowledged_step",
    "store/test_safety_recover.py::test_24_8_values_nested_100k_levels_are_damage_not_a_traceback",
    "store/test_golden_saves.py::test_golden_save_opens_undoes_redoes_records_and_travels"
    "[v0.1.0-vlad]",
    "store/test_golden_saves.py::test_golden_save_opens_undoes_redoes_records_and_travels"
    "[v0.2.0-day]",
    "store/test_safety_import.py::test_24_7_a_forged_wagon_claiming_an_earlier_release_is_refused"
    "[first]",
    "cli/test_play_every_question.py::"
    "test_every_question_kind_is_answered_to_completion_in_blood_play",
    "cli/test_play_keeps_choices.py::test_4_enter_everywhere_never_loses_a_night_for_lack_of_cards",
    "cli/test_play_json.py::test_play_answer_records_what_the_same_lines_record_typed",
    "engine/test_physical.py::test_every_step_of_a_golden_campaign_is_told_in_words",
    "engine/test_table_decks.py::test_a_night_with_every_deck_at_the_table_is_the_app_night",
    "cli/test_board_api.py::test_one_seat_per_trouper_and_a_watch_seat_kept_private_and_reused",
})
# a test using one of these fixtures starts a process
SLOW_FIXTURES = frozenset({"blood_proc"})
_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.resolve()
        where = path.relative_to(_TESTS).as_posix() if path.is_relative_to(_TESTS) else ""
        names = {f"{where}::{item.name}", f"{where}::{getattr(item, 'originalname', item.name)}"}
        if (where.startswith(SLOW_FILES) or names & SLOW_TESTS
                or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.slow)
