"""The one dispatch style of the trick engines: a handler table per phase.

An engine's ``apply`` looks up the method for the current phase and the kind
of action in one table instead of an if/elif ladder over phases and an
isinstance chain over actions:

    _APPLY = phase_table(
        Phase,
        {
            Phase.PLAY: (on(Play, _play), on(RegisterHand, _register)),
            Phase.OVER: (),
        },
        shared=(on(Play, _refuse_play),),
        otherwise={Phase.OVER: _over},
        unknown=_unknown,
    )

    def apply(self, action):
        return self._APPLY[self.phase][type(action)](self, action)

Each phase lists the actions it takes; an action it does not list goes to the
``shared`` route of its kind (the refusal that says why not now, or a handler
every live phase shares alike), and an action of no listed kind goes to the
phase's ``otherwise`` handler or else ``unknown``. The lookups are two
dictionary subscripts, cheaper than the ladders they replace.

``by_phase`` is the same idea for questions without an action (``expected``,
``legal_actions``): a table from every phase to the method (or the values) that
answer it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Generic, TypeVar, cast

from controller.games.base import Action, Event

E = TypeVar("E")  # the engine
A = TypeVar("A", bound=Action)
P = TypeVar("P", bound=Enum)
V = TypeVar("V")

Handler = Callable[[E, Action], list[Event]]


class Route(Generic[E]):
    """One line of a phase table: the kind of action, and the engine method that takes it."""

    __slots__ = ("handler", "kind")

    def __init__(self, kind: type[Action], handler: Handler[E]) -> None:
        self.kind = kind
        self.handler = handler


def on(kind: type[A], handler: Callable[[E, A], list[Event]]) -> Route[E]:
    """A route: ``handler`` (an engine method, unbound) takes actions of exactly ``kind``."""
    # Safe: the table calls ``handler`` only with actions whose type is ``kind``.
    return Route(kind, cast(Handler[E], handler))


class Routes(dict[type[Action], Handler[E]]):
    """One phase's handlers by kind of action; any other kind goes to ``otherwise``."""

    def __init__(self, routes: Iterable[Route[E]], otherwise: Handler[E]) -> None:
        super().__init__((route.kind, route.handler) for route in routes)
        self.otherwise = otherwise

    def __missing__(self, kind: type[Action]) -> Handler[E]:
        return self.otherwise


def phase_table(
    phases: type[P],
    routes: Mapping[P, Iterable[Route[E]]],
    *,
    shared: Iterable[Route[E]] = (),
    otherwise: Mapping[P, Handler[E]] | None = None,
    unknown: Handler[E],
) -> dict[P, Routes[E]]:
    """Every phase's routes, each completed by the ``shared`` routes of the kinds it does not list.

    ``routes`` must name every phase of ``phases`` (an empty tuple for a phase
    that takes nothing); a phase in ``otherwise`` sends every kind it does not
    list to that handler instead of the shared routes (a game that is over).
    """
    missing = [phase for phase in phases if phase not in routes]
    if missing:
        raise ValueError(f"the phase table names no routes for {missing}")
    closed = otherwise or {}
    common = tuple(shared)
    table: dict[P, Routes[E]] = {}
    for phase in phases:
        if phase in closed:
            table[phase] = Routes(routes[phase], closed[phase])
        else:
            table[phase] = Routes((*common, *routes[phase]), unknown)
    return table


def by_phase(phases: type[P], answers: Mapping[P, V]) -> dict[P, V]:
    """A table from every phase to what answers for it: a method, or a value (checked complete)."""
    missing = [phase for phase in phases if phase not in answers]
    if missing:
        raise ValueError(f"the phase table names no answer for {missing}")
    return dict(answers)
