"""Plans played and dropped, inside the unit of work that records a move
(service.play.moves.submit.record): a plan whose condition the move meets exactly is answered
at once, in events of its own (`source='plan'`); a plan whose condition can no longer happen
is dropped, and waits (`told` false) until its writer's next turn email says why."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, exists, select, update
from sqlalchemy.orm import Session

from service.games.contract import CommandError, Event, IllegalMove, Move, replay
from service.mailwire.outbound.catalogs import N_, kept
from service.store.models import PLANS_WAITING, EventRow, Plan

from .standingplans import shown

SOURCE = "plan"
#: plans answering plans, at most this many in one move (a loop guard, never a rule)
MAX_CHAIN = 20


@dataclass(frozen=True)
class Step:
    seat: int
    events: list[Event]
    moves: list[Move]
    state: Any
    text: str


@dataclass
class Followed:
    steps: list[Step]
    untold: list[Plan]            # dropped plans whose writers have not been told yet
    standing: list[Plan] = field(default_factory=list)   # the plans standing after it


#: a move's plans to follow or to tell of: those standing, and those dropped but not told yet
WAITING = PLANS_WAITING
# built once: it runs on every move of a game that can hold plans, and building it costs about
# as much as running it (bench/move_cpu.py measures it)
_WAITING = select(Plan).where(Plan.game_id == bindparam("game_id"), WAITING).order_by(Plan.id)


def follow(session: Session, chance, game, engine, before: Any, mover: int,
           moves: list[Move], state: Any, source: str, rows: list[Plan] | None = None
           ) -> Followed:
    """The plans the move (`mover`'s `moves`, from `before` to `state`) sets off, in order.
    `rows`: the game's `waiting` plans, when the caller read them already (the clock
    sweep's batch reads those of all its games at once)."""
    if not takes_plans(engine):     # none can have been written: no query on this move's path
        return Followed([], [])
    if rows is None:
        rows = list(session.scalars(_WAITING, {"game_id": game.id}))
    plans = [p for p in rows if p.status == "standing"]
    steps = _follow(session, chance, game, engine, plans, before, mover, moves, state, source)
    return Followed(steps, [p for p in rows if p.status == "dropped" and not p.told],
                    [p for p in rows if p.status == "standing"])


def takes_plans(engine) -> bool:
    """Whether a game of this engine can hold plans at all (service.play.moves.standingplans.judge
    refuses them where the engine cannot say what a writer may know)."""
    return getattr(engine, "plan_world", None) is not None and \
        not getattr(engine, "sealed_choices", None)


def tell(untold: list[Plan], emails: list[dict], engine, names: list[str]) -> None:
    """The dropped plans, and why, in their writers' turn emails of this move (marked told);
    a writer not mailed now hears in a later one. Each plan reads as `plans` lists it ("if
    they lead the Mill then play the Penitent"), never with its condition cut short."""
    for email in emails:
        # each line's reason said in the reader's language when the email is composed
        # (catalogs.unkept, in the templates)
        lines = [{"plan": shown(engine, p, names), "why": p.why} for p in untold
                 if p.seat == email["seat"] and not p.told]
        if lines and email["kind"] == "turn":
            email["payload"] = dict(email["payload"], plans_dropped=lines)
            for plan in untold:
                if plan.seat == email["seat"]:
                    plan.told = True


def show(standing: list[Plan], emails: list[dict], engine, names: list[str]) -> None:
    """Each mailed seat's standing plans in its email (`plans` in the payload)."""
    for email in emails:
        lines = [shown(engine, p, names) for p in standing if p.seat == email["seat"]]
        if lines:
            email["payload"] = dict(email["payload"], plans=lines)


def _follow(session, chance, game, engine, plans, before, mover, moves, state,
            source) -> list[Step]:
    if not plans:
        return []
    names = [s.player.name for s in game.seats]
    steps: list[Step] = []
    for _ in range(MAX_CHAIN):
        if engine.outcome(state) is not None:
            _drop(plans, N_("the game ended"))
            return steps
        step = _answer(session, chance, game, engine, names, plans, before, mover, moves,
                       state, source)
        if step is None:
            step = _queued(chance, engine, plans, state)
        if step is None:
            return steps
        steps.append(step)
        before, mover, moves, state, source = state, step.seat, step.moves, step.state, SOURCE
    return steps


def _answer(session, chance, game, engine, names, plans, before, mover, moves, state,
            source) -> Step | None:
    """The `if` plans on the mover's move: the first met is played, the rest dropped."""
    if mover not in engine.to_act(before):
        return None               # a choice made out of turn (Magnate, M19) answers nothing
    played = None
    for plan in [p for p in plans if p.kind == "if" and p.other == mover]:
        plans.remove(plan)
        who = names[mover]
        if source == "timer":
            _drop([plan], N_("%(who)s's time ran out and the clock moved for them"), who=who)
        elif _moved_since(session, engine, game.id, plan):
            _drop([plan], N_("%(who)s moved otherwise"), who=who)
        elif played is not None or not _met(engine, plan, before, moves):
            _drop([plan], N_("%(who)s moved otherwise"), who=who)
        elif plan.seat not in engine.to_act(state):
            # met, but the writer is not to act yet (the mover's Magnate turn is still open,
            # M9; another player moves first at a larger table): the answer waits for the
            # writer's turn, as a `next:` plan
            plan.kind = "next"
            plans.append(plan)
        else:
            played = _try(chance, engine, plan, state)
    return played


def _queued(chance, engine, plans, state) -> Step | None:
    """A `next:` plan of a seat whose turn it now is."""
    acting = engine.to_act(state)
    for plan in [p for p in plans if p.kind == "next" and p.seat in acting]:
        plans.remove(plan)
        step = _try(chance, engine, plan, state)
        if step is not None:
            return step
    return None


def _met(engine, plan: Plan, before, moves: list[Move]) -> bool:
    """The condition, re-read in the position the named seat moved from, is exactly the
    start of its move."""
    world = engine.plan_world(before, plan.seat)
    try:
        wanted = engine.parse(world, plan.other, plan.text)
    except CommandError:
        return False
    return list(moves[:len(wanted)]) == list(wanted)


def _moved_since(session: Session, engine, game_id: int, plan: Plan) -> bool:
    """The named seat made a move after the plan was written and before this one (one the
    plan did not see, a clock's batch): the plan answered 'its next move' and that is past.
    Choices made out of turn, unseen by the writer (the engine's `plan_out_of_turn`), are
    no move here."""
    found = exists().where(EventRow.game_id == game_id, EventRow.seat == plan.other,
                           EventRow.seq > plan.written_seq, EventRow.source != "start")
    unseen = tuple(getattr(engine, "plan_out_of_turn", ()))
    if unseen:
        found = found.where(EventRow.type.not_in(unseen))
    return bool(session.scalar(select(found)))


def _try(chance, engine, plan: Plan, state) -> Step | None:
    """The plan's move played now, or the plan dropped with the engine's reason."""
    text = plan.reply["text"]
    if plan.seat not in engine.to_act(state):
        _drop([plan], N_("it was not your turn then, so \"%(move)s\" could not follow"),
              move=text)
        return None
    try:
        moves = engine.parse(state, plan.seat, text)
        events: list[Event] = []
        after = state
        for move in moves:
            made = engine.decide(after, plan.seat, move, chance)
            after = replay(engine, made, after)
            events += made
        closing = _closing(engine, after, plan.seat)
        if closing is not None:      # a plan is a whole turn, as a reply is (M9)
            made = engine.decide(after, plan.seat, closing, chance)
            after = replay(engine, made, after)
            events += made
            moves = [*moves, closing]
    except (CommandError, IllegalMove) as exc:
        _drop([plan], N_("\"%(move)s\" was no longer allowed: %(why)s"), move=text,
              why={"template": exc.template, "args": exc.values})
        return None
    plan.status, plan.why, plan.told = "played", None, True
    return Step(plan.seat, events, moves, after, text)


def _closing(engine, state, seat: int) -> Move | None:
    finish = getattr(engine, "finish_turn", None)
    return finish(state, seat) if finish is not None else None


def _drop(plans: list[Plan], why: str, /, **values) -> None:
    """`why` (marked, with its values, one may be named "why" too) kept for the writer's
    language (catalogs.kept)."""
    for plan in plans:
        plan.status, plan.why, plan.told = "dropped", kept(why, **values), False


def drop_all(session: Session, game_id: int, why: str) -> None:
    """Every standing plan of the game dropped (a take-back: the moves they answered are
    gone); `why` marked for the catalogs."""
    session.execute(update(Plan).where(Plan.game_id == game_id, Plan.status == "standing")
                    .values(status="dropped", why=kept(why), told=False)
                    .execution_options(synchronize_session=False))


