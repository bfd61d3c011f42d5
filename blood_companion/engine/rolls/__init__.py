"""Tests ("Tests"): the dice a Trouper rolls against a number of Triumphs, in one package.

* :mod:`.procedure` — the seven steps of a Test, the notation of recorded throws and
  Re-rolls (one parser), the Insanity bonus at a Trouper's cube and the cube's move after a
  Test, Attack targets;
* :mod:`.recorded` — ``take_test``, the Test `blood test` records on the log;
* :mod:`.night` — a Trouper's Tests during the night (Effects, attacks, dodges, Quick Items),
  and the same Test asked throw by throw for `blood play` and `night next`.

The exact odds and the Insanity track's bonuses (``insanity_bonuses``) stay in engine/odds.py,
which `blood odds` imports without pydantic.
"""
