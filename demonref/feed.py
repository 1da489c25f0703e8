"""Rich renderings of the referee's output: the running feed, the tally, the flags and match scoreboards."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from referee.events import Correction, Event, Out, Play, RoundEnd, RoundStart
from referee.game import RoundState, Verdict
from referee.match import Match
from referee.scoring import Tally


def feed_line(event: Event, verdicts: Sequence[Verdict], state: RoundState) -> Text | None:
    """One line of the running feed for events people care about (plays, Out, flags); None for the rest."""
    stamp = f"{event.t:7.2f}s "
    if verdicts:
        v = verdicts[0]
        style = "yellow" if v.code in ("conflict", "unattributed") else "bold red"
        return Text.assemble(stamp, (f"FLAG {v.code}", style), f"  {v.message}")
    if isinstance(event, RoundStart):
        names = ", ".join(f"{p.name}({p.back or '?'}, demon {p.demon_left})" for p in state.players.values())
        return Text.assemble(stamp, ("round starts", "bold"), f"  {state.rules.name}: {names}")
    if isinstance(event, Play):
        pile = state.foundations[event.pile]
        who = state.players[event.player].name if event.player else "?"
        note = "  King! foundation complete" if pile.complete else ""
        return Text.assemble(stamp, (f"{who:>10}", "cyan"), f" plays {event.card} on {event.pile}{note}")
    if isinstance(event, Out):
        return Text.assemble(stamp, (f"{state.players[event.player].name} calls OUT", "bold green"))
    if isinstance(event, RoundEnd):
        return Text.assemble(stamp, ("round over", "bold"), f" ({event.reason})" if event.reason else "")
    if isinstance(event, Correction):
        return Text.assemble(stamp, ("correction", "magenta"), f" {event.action} by {event.by}: {event.reason}")
    return None


def tally_table(tally: Tally, *, title: str | None = None) -> Table:
    table = Table(title=title or f"Tally — {tally.rules}" + ("" if tally.finished else " (round not over)"))
    for col, justify in (("player", "left"), ("back", "left"), ("played", "right"), ("kings", "right"),
                         ("out", "center"), ("demon left", "right"), ("score", "right")):  # fmt: skip
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    best = max((p.score for p in tally.players), default=0)
    for p in tally.players:
        style = "bold green" if p.score == best else None
        table.add_row(
            p.name, p.back or "", str(p.played), str(p.kings), "OUT" if p.out else "", str(p.demon_left),
            str(p.score), style=style,
        )  # fmt: skip
    return table


def flags_table(flags: Sequence[Verdict]) -> Table:
    table = Table(title=f"Flags ({len(flags)})")
    for col in ("seq", "code", "player", "card", "message"):
        table.add_column(col)
    for v in flags:
        table.add_row(str(v.seq), v.code, v.player or "?", str(v.card) if v.card else "", v.message)
    return table


def scoreboard(match: Match, names: dict[str, str] | None = None) -> Table:
    names = names or {}
    table = Table(title=f"Match to {match.target} — handicap {match.handicap}")
    table.add_column("round", justify="right")
    for p in match.players:
        table.add_column(names.get(p, p), justify="right")
    for r in match.rounds:
        cells = [f"{r.scores[p]:+d} = {r.totals[p]} (demon {r.demons[p]})" for p in match.players]
        table.add_row(str(r.number), *cells)
    table.add_row("next demons", *[str(match.next_demons[p]) for p in match.players], style="dim")
    return table
