"""Plans: moves a seat writes ahead, `if they lead the Mill then play the Savage` (answer the
named seat's next move when it is exactly that) and `next: take blind` (play when my turn
comes). Both sides are the game's own command words, read by the engine's `parse`.

A condition is read against the position as the writer may know it (the engine's
`plan_world`: the other seat holding every card it might hold, what the writer cannot see
made of stand-ins), never against its real hand or the real deck, so accepting or refusing a
line tells the writer nothing new (tests/games/test_hidden_information.py). The rows are the
writer's alone (`plans`); service.play.moves.planplay plays and drops them."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.games.contract import CommandError, IllegalMove, Move, replay
from service.mailwire.outbound.catalogs import N_, _, ngettext, spoken
from service.play import repository
from service.play.errors import GameOver, Refused, reason
from service.play.services import Services
from service.store import records
from service.store.models import Plan

#: standing plans a seat may hold in one game
MAX_PLANS = 50
_IF = re.compile(r"^(?P<cond>.+?)\s+then\s+(?P<reply>.+)$", re.IGNORECASE)


class PlanRefused(Refused):
    title = N_("That plan cannot be made")


@dataclass(frozen=True)
class Judged:
    """A plan line as read: which kind, the seat it answers, the moves, the canonical text."""

    kind: str                     # if | next
    other: int | None
    condition: list[Move] | None
    condition_text: str | None    # the condition's move words, re-read when it is met
    reply_text: str
    key: str                      # what a later line replaces it by (same condition)
    shown: str                    # the plan as `plans` lists it


def judge(engine, state, writer: int, names: list[str], kind: str, rest: str) -> Judged:
    """A plan line checked against what the writer may know, or PlanRefused with the reason.
    A pure function of the writer's knowledge (privacy: tests/play/moves/test_plans.py)."""
    sealed = getattr(engine, "sealed_choices", None)
    if sealed:
        raise PlanRefused(_("Plans cannot be written in %(game)s: %(why)s.", game=engine.title,
                            why=spoken(sealed, {})))
    if getattr(engine, "plan_world", None) is None:
        raise PlanRefused(_("Plans are not available in %(game)s yet.", game=engine.title))
    if engine.outcome(state) is not None:
        raise GameOver(_("This game has finished; plans can no longer be written."))
    rest = rest.strip()
    if kind == "next":
        return _judge_next(engine, state, writer, rest)
    found = _IF.match(rest)
    if not found:
        raise PlanRefused(_("Write a plan as: if they lead the Mill then play the Savage "
                            "(or next: take blind)."))
    other, cond_text = _named(names, writer, found["cond"].strip())
    reply_text = found["reply"].strip()
    world = engine.plan_world(state, writer)
    who = "they" if len(names) == 2 else names[other]
    try:
        cond_text, condition = _read_condition(engine, world, other, cond_text)
    except CommandError as exc:
        if who == "they":
            raise PlanRefused(_("\"%(move)s\" is not a move they could make: %(why)s.",
                                move=cond_text, why=reason(exc))) from None
        raise PlanRefused(_("\"%(move)s\" is not a move %(who)s could make: %(why)s.",
                            move=cond_text, who=who, why=reason(exc))) from None
    for move in condition:
        why = engine.never_possible(state, writer, move)
        if why and who == "they":
            raise PlanRefused(_("They can never %(move)s: %(why)s.", move=cond_text,
                                why=_clause(why)))
        if why:
            raise PlanRefused(_("%(who)s can never %(move)s: %(why)s.", who=_cap(who),
                                move=cond_text, why=_clause(why)))
    _check_reply(engine, world, writer, other, condition, reply_text)
    said = "; ".join(engine.describe(m) for m in condition)
    return Judged("if", other, condition, cond_text, reply_text, f"if:{other}:{said}",
                  f"if {who} {said} then {reply_text}")


def _read_condition(engine, world, other: int, text: str) -> tuple[str, list[Move]]:
    """The condition as the engine reads it, and the words that read: `bob sells the
    Sailor` is read as `sell the Sailor` when the verb as said is no command."""
    try:
        return text, engine.parse(world, other, text)
    except CommandError:
        verb, _, rest = text.partition(" ")
        for plain in (verb[:-1], verb[:-2]) if verb.lower().endswith("s") else ():
            try:
                said = f"{plain} {rest}".strip()
                return said, engine.parse(world, other, said)
            except CommandError:
                continue
        raise


def _judge_next(engine, state, writer: int, reply_text: str) -> Judged:
    if not reply_text:
        raise PlanRefused(_("next: what? e.g. next: take blind"))
    if writer in engine.to_act(state):
        raise PlanRefused(_("It is your move now: write the move itself rather than next:."))
    try:
        engine.parse(state, writer, reply_text)
    except CommandError as exc:
        raise _not_yours(reply_text, exc) from None
    return Judged("next", None, None, None, reply_text, "next", f"next: {reply_text}")


def _check_reply(engine, world, writer: int, other: int, condition: list[Move],
                 reply_text: str) -> None:
    """The answer must be legal in the position the condition leads to, when the writer can
    reach it (the other seat is to move now); otherwise it is read, and checked when played."""
    try:
        moves = engine.parse(world, writer, reply_text)
    except CommandError as exc:
        raise _not_yours(reply_text, exc) from None
    if other not in engine.to_act(world):
        return
    chance = random.Random(0)     # the hypothetical position only: nothing is recorded
    try:
        after = world
        for move in condition:
            after = replay(engine, engine.decide(after, other, move, chance), after)
    except IllegalMove:
        # not in this world, yet perhaps in the real one (a forced unroot, a follow off
        # suit): the answer is checked when played
        return
    if writer not in engine.to_act(after):
        return                    # their turn goes on (Magnate, M9): checked when played
    try:
        moves = engine.parse(after, writer, reply_text)
        for move in moves:
            after = replay(engine, engine.decide(after, writer, move, chance), after)
    except CommandError as exc:
        raise _not_yours(reply_text, exc) from None
    except IllegalMove as exc:
        raise PlanRefused(_("\"%(move)s\" would not be allowed then: %(why)s.",
                            move=reply_text, why=reason(exc))) from None


def _not_yours(text: str, refusal: CommandError) -> PlanRefused:
    return PlanRefused(_("\"%(move)s\" is not a move of yours: %(why)s.", move=text,
                         why=reason(refusal)))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _clause(why) -> str:
    """An engine's `never_possible` clause in the language of the moment: a phrase
    (service.games.text.phrase) translated, a plain string as it is."""
    return spoken(why["template"], why["args"]) if isinstance(why, dict) else why

def _named(names: list[str], writer: int, text: str) -> tuple[int, str]:
    """The seat a condition names (`they`, or a display name) and the rest of it."""
    low = text.lower()
    if low.startswith("they "):
        others = [s for s in range(len(names)) if s != writer]
        if len(others) != 1:
            raise PlanRefused(_("There are %(n)s players here: name the one you mean, e.g. "
                                "if %(name)s ...", n=len(names), name=names[others[0]]))
        return others[0], text[5:].strip()
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        name = names[seat].lower()
        if seat != writer and low.startswith(name + " "):
            return seat, text[len(name):].strip()
    raise PlanRefused(_("Whose move? Start the condition with they (two players) or a "
                        "player's name, e.g. if they lead the Mill then play the Savage."))


# --- the rows -------------------------------------------------------------------------------

def standing(session: Session, game_id: int, seat: int | None = None) -> list[Plan]:
    query = select(Plan).where(Plan.game_id == game_id, Plan.status == "standing")
    if seat is not None:
        query = query.where(Plan.seat == seat)
    return list(session.scalars(query.order_by(Plan.id)))


def write(session: Session, svc: Services, game_id: int, seat: int, kind: str,
          rest: str) -> str:
    """A plan line kept (the game locked against a move meanwhile); the answer says what
    it did, and which earlier plan it replaced."""
    pos = repository.load_locked(session, svc.states, game_id, records.Tracked(session))
    if pos.row.status == "ended":
        raise GameOver(_("This game has finished; plans can no longer be written."))
    names = [s.player.name for s in pos.row.seats]
    judged = judge(pos.engine, pos.state, seat, names, kind, rest)
    mine = standing(session, game_id, seat)
    replaced = [p for p in mine if _key(pos.engine, p, names) == judged.key]
    if len(mine) - len(replaced) >= MAX_PLANS:
        raise PlanRefused(_("You have %(n)s plans in this game already, the most there may "
                            "be; write plans clear to start again.", n=MAX_PLANS))
    for old in replaced:
        session.delete(old)
    session.add(Plan(game_id=game_id, seat=seat, kind=judged.kind, other=judged.other,
                     condition=({"moves": judged.condition} if judged.condition else None),
                     reply={"text": judged.reply_text}, text=judged.condition_text or "",
                     written_seq=pos.row.seq, status="standing", told=False,
                     created_at=svc.clock.now()))
    session.flush()
    if replaced:
        return _("Plan kept: %(plan)s (it replaces your earlier plan: %(old)s).",
                 plan=judged.shown, old=shown(pos.engine, replaced[0], names))
    return _("Plan kept: %(plan)s.", plan=judged.shown)


def _key(engine, plan: Plan, names: list[str]) -> str:
    if plan.kind == "next":
        return "next"
    said = "; ".join(engine.describe(m) for m in plan.condition["moves"])
    return f"if:{plan.other}:{said}"


def shown(engine, plan: Plan, names: list[str]) -> str:
    if plan.kind == "next":
        return f"next: {plan.reply['text']}"
    who = "they" if len(names) == 2 else names[plan.other]
    said = "; ".join(engine.describe(m) for m in plan.condition["moves"])
    return f"if {who} {said} then {plan.reply['text']}"


def mine(session: Session, engine, game_id: int, seat: int, names: list[str]) -> list[str]:
    """The seat's standing plans as `plans` lists them (its page; none where the engine takes
    none, without a query)."""
    if getattr(engine, "plan_world", None) is None:
        return []
    return [shown(engine, p, names) for p in standing(session, game_id, seat)]


#: likely plans offered at most in one email or page
MAX_HINTS = 12


def hints(engine, state, seat: int | None, names: list[str]) -> list[str]:
    """Plan lines `seat` might write now, from the engine's `plan_hints` (its own knowledge
    only): in Suzerain, an answer to each lead of the opponent's known cards."""
    offer = getattr(engine, "plan_hints", None)
    if offer is None or seat is None or len(names) != 2 or engine.outcome(state) is not None:
        return []
    lines = [f"if they {engine.describe(cond)} then {engine.describe(answer)}"
             for cond, answers in offer(state, seat) for answer in answers]
    return lines[:MAX_HINTS]


def listing(session: Session, svc: Services, game_id: int, seat: int) -> str:
    pos = repository.load(session, svc.states, game_id)
    names = [s.player.name for s in pos.row.seats]
    mine = standing(session, game_id, seat)
    if not mine:
        return _("You have no plans in this game.")
    return _("Your plans, which nobody else sees:") + "\n" + "\n".join(
        f"  {shown(pos.engine, p, names)}" for p in mine)


def clear(session: Session, game_id: int, seat: int) -> str:
    mine = standing(session, game_id, seat)
    for plan in mine:
        session.delete(plan)
    return ngettext("Your %(num)s plan dropped.", "Your %(num)s plans dropped.", len(mine)) \
        if mine else _("You had no plans in this game.")
