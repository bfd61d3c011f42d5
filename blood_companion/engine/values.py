"""Small immutable values for the dice and odds engine, without dataclasses or pydantic, so that
`blood roll` and `blood odds` import nothing heavy (``Face``, ``DieSpec``, ``DiceBox``, the odds'
results). A subclass names its fields in ``__slots__`` and sets them in ``__init__`` (checking
them); :class:`Value` gives equality, hashing, ``repr``, pickling and :meth:`Value.as_dict`. A
pydantic model holding one validates a dict through the class's ``__init__`` and dumps it as the
dict of its fields, in ``__slots__`` order."""

from __future__ import annotations

from typing import Any


class Value:
    """Base of an immutable value whose fields are its ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.as_dict()))

    def as_dict(self) -> dict[str, Any]:
        """The fields by name, in order (nested values stay values)."""
        return {name: getattr(self, name) for name in self.__slots__}

    # pydantic ---------------------------------------------------------------
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            cls._coerce,
            serialization=core_schema.plain_serializer_function_ser_schema(
                _dump, when_used="always"
            ),
        )

    @classmethod
    def _coerce(cls, value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if not isinstance(value, dict):
            raise ValueError(f"expected a mapping of {cls.__name__} fields")
        unknown = set(value) - set(cls.__slots__)
        if unknown:
            raise ValueError(f"unknown {cls.__name__} field(s): {', '.join(sorted(unknown))}")
        try:
            return cls(**value)
        except TypeError as exc:
            raise ValueError(str(exc)) from None


def _dump(value: Any) -> dict[str, Any]:
    return {name: _plain(getattr(value, name)) for name in value.__slots__}


def _plain(value: Any) -> Any:
    if isinstance(value, Value):
        return _dump(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _rebuild(cls: type[Value], fields: dict[str, Any]) -> Value:
    return cls(**fields)
