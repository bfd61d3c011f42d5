"""A package's names loaded from their modules on first use (PEP 562's module ``__getattr__``):
importing the package imports none of the modules until a name of theirs is read."""

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str], within: str | None = None
               ) -> Callable[[str], object]:
    """The ``__getattr__`` of ``package``: each name of ``homes`` read from its module
    (``package.home``, or ``within.home`` for a module naming its siblings' names) once, then
    kept as the package's own attribute."""

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{within or package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
