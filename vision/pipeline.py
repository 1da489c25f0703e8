"""The camera chain: frames in, a refereed round out.

``Chain.feed(image, t, frame)`` runs detection (or takes the oracle's), tracking, the table model and the
referee's reconstruction, and returns the events the frame implied; ``Chain.finish`` ends the round.
Everything after the detector is the same for the oracle and the real models, so the oracle measures the
chain's own logic.

Order of business at the start of a video: calibration (markers, else card sizes), then the seats from the
first frames in which the dealt table lies still, then ``round_start``; from there every processed frame
becomes a ``TableView``. Each foundation pile settles on its own: the referee is shown a pile's new top (or the
pile's coming or going) once it has held for a few frames, and the pile as it was until then. (Settling the table
as a whole waited for every pile to hold at once; with real readings some pile flickers in most frames, and a
play could go unlogged for seconds or for good.)

Seats are named by their decks' back colours, seen on the stock beside each dealt row. When seats show no back
at the start (a stock held in the hand, or one the detector misses on a cloth of its colour), naming two or more of
them by table order is a coin toss that would credit one player's whole round to another; and one, named by the
colour the others leave, is only as right as the closest call among the others (e2e-s49/game00, real models: a
black lattice measured a grey-blue, nearer blue than black, and the seat whose pale blue stock went unseen on a
blue cloth took black: two players' rounds swapped). So the round's events wait, up to ``NAMING_WAIT_S`` of film,
for backs seen in those seats' areas; the views are kept meanwhile and stepped through the referee in order once
the names are known (the log is the same as if they had been known from the start, only later).
"""

from __future__ import annotations

import queue
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from referee.cards import Card
from referee.events import Correction, Event, Out, Play, PlayerSpec, RoundEnd, RoundStart
from referee.game import (
    DUPLICATE_CARD,
    NOT_AN_ACE,
    NOT_PLAYABLE,
    WRONG_RANK,
    WRONG_SUIT,
    RoundState,
    Verdict,
    apply,
    initial,
)
from referee.reconstruct import ReconState, reaccepted, refused, settle, step
from referee.rules import Rules
from referee.tableview import PileView, TableView
from vision.arms import Arms
from vision.calibrate import Calibration, CalibrationError, card_size_px, from_card_sizes, from_markers
from vision.capture import Frame
from vision.detections import Detections
from vision.synth.faces import BACK_COLOURS
from vision.table import (
    Seen,
    TableModel,
    alike_backs,
    colour_name,
    find_seats,
    long_side,
    name_seats,
    seat_of_back,
)
from vision.track import CardTracks

SETTLE_FRAMES = 3  # processed frames a foundation pile's change must hold before it is committed
# ... counted over the last frames that saw the pile, of which it must be most: a pile's top read one card and
# another by turns, or not found every frame, settles on what it shows most (e2e-s14/game01, real models: a 5H,
# found in about half the frames and read 6D in a third of those, settled 13 s after it landed)
SETTLE_WINDOW = 5
# Cards narrower than this in the frame (px) are read right about three times in four (held-out designs, whole cards
# under 30 px: 0.75; 36-42 px: 0.96); the round starts with a note saying so (docs/pipeline.md, session 58).
SMALL_CARD_PX = 32
SEAT_FRAMES = 3  # processed frames the dealt table must lie still before seats are taken
NAMING_WAIT_S = 20.0  # film seconds the round's events wait for a back in each seat that showed none at the start
NAMING_SIGHTINGS = 5  # processed frames with a back seen in such a seat before its colour is taken
# Out is inferred for a player whose demon is counted and seen empty once the whole middle has lain unchanged this
# long (film seconds): play stops when Out is called, but a player need not call at once (RULES.md), and while
# they or the others play on, a pause of a few frames between plays is no call (e2e-s57/game02, oracle: p4's demon
# emptied at 41.6 s, Out called at 43.5 s; inferred at 41.8 s, p2's QH and a 4C conflict after it were flagged as
# late plays). Replayed on the 78 games recorded with the oracle and four full rounds (session 44): false late-play
# flags 4 -> 0, injected late plays (0.5 s after a call) all still flagged.
OUT_STILL_S = 0.9
# Verdicts that leave a play's card off its foundation in the rules' record though it lies there on the table.
REFUSED = frozenset({WRONG_SUIT, WRONG_RANK, NOT_AN_ACE, DUPLICATE_CARD, NOT_PLAYABLE})


@dataclass
class Flag:
    """A verdict with where it was seen (for the report and the annotated video)."""

    verdict: Verdict
    frame: int
    t: float
    quad: list[list[float]] | None = None


@dataclass
class _Naming:
    """Seats found without a back colour at round start, waiting for backs seen in their areas; the views of the
    table meanwhile, stepped through the referee once the seats are named."""

    t: float  # when the round started
    colours: dict[str, list[tuple[float, float, float]]]  # seat (as first named) -> colours of backs seen there
    views: list[TableView] = field(default_factory=list)


def detect_ahead(
    frames: Iterable[Frame], detect: Callable[[np.ndarray], Detections], ahead: int = 1
) -> Iterator[tuple[Frame, Detections]]:
    """Each frame with the detector's finds, in order; the finds are the same as ``detect(frame.image)`` in turn.

    A thread of its own takes the frames from ``frames`` (decoding them, or waiting for a camera) and detects up
    to ``ahead`` of them while the caller tracks and referees the one it was given (the detector's runtime and
    OpenCV let go of the GIL; the tracker, the table model and the referee are Python). A frame is handed over as
    soon as it is detected, never held back until the next one arrives, so a camera's frame is not kept waiting a
    frame interval. Leaving the loop early stops the thread after the step under way; an error in ``frames`` or
    ``detect`` (a lost camera, a truncated file) is raised here, after the frames before it."""
    handed: queue.Queue[tuple[Frame, Detections] | BaseException | None] = queue.Queue()
    slots = threading.Semaphore(ahead)  # frames taken from the source and not yet handed to the caller
    stop = threading.Event()

    def work() -> None:
        it = iter(frames)
        try:
            while True:
                slots.acquire()
                if stop.is_set():
                    return
                frame = next(it, None)
                if frame is None or stop.is_set():
                    return
                handed.put((frame, detect(frame.image)))
        except BaseException as exc:
            handed.put(exc)
        finally:
            handed.put(None)
            close = getattr(it, "close", None)
            if close is not None:
                close()  # a generator source is closed on the thread that ran it

    worker = threading.Thread(target=work, name="detect", daemon=True)
    worker.start()
    try:
        while True:
            item = handed.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            slots.release()  # the caller has this frame: the thread may take the next
            yield item
    finally:
        stop.set()
        slots.release()
        worker.join()


@dataclass
class Chain:
    """One round seen by one camera. ``detect``: image → Detections (None when the caller passes the oracle's
    detections to ``feed``); ``identify``: the identifier (None when detections come already read)."""

    rules_name: str
    options: dict[str, Any] = field(default_factory=dict)
    players: Sequence[tuple[str, str | None]] | None = None  # (id, back colour) when known
    detect: Callable[[np.ndarray], Detections] | None = None
    identify: Any | None = None
    calibration: Calibration | None = None
    frame_rate: int = 30
    on_event: Callable[[Event], None] | None = None
    # Watches arms over the table (who reached a pile as its top changed: vision/arms.py); None: not watched.
    arms: Arms | None = field(default_factory=Arms)

    def __post_init__(self) -> None:
        self.rules = Rules.preset(self.rules_name).with_options(self.options)
        self.tracks = CardTracks(self.identify, frame_rate=self.frame_rate)
        self.model: TableModel | None = None
        self.recon = ReconState()
        self.state: RoundState = initial()
        self.events: list[Event] = []
        self.flags: list[Flag] = []
        self.seen: list[Seen] = []
        self.last_view: TableView | None = None
        self._still = 0
        self._run = 0  # processed views the whole middle has lain unchanged (for Out)
        self._still_since = 0.0  # when the whole middle last changed (for Out)
        self._middle: dict[str, Card] = {}  # each pile's top as last seen (for Out)
        self._settled = SettledPiles()
        self.processed = 0
        self.notes: list[str] = []
        self._naming: _Naming | None = None
        self._names: dict[str, str] = {}  # seat as the table model names it -> player, where they differ

    @property
    def started(self) -> bool:
        return self.model is not None

    def _emit(self, event: Event, frame: int) -> None:
        self.events.append(event)
        self.state, verdicts = apply(self.state, event)
        for v in verdicts:
            quad = None
            card = getattr(event, "card", None)
            if card is not None:
                match = [s for s in self.seen if s.card == str(card)]
                if match:
                    quad = np.asarray(match[0].quad).round(1).tolist()
            self.flags.append(Flag(v, frame, event.t, quad))
        if isinstance(event, Correction) and event.target is not None and self.recon.suspect:
            still = {v.seq for v in self.state.flags if v.code in REFUSED}
            tops = {k: f.cards[-1] if f.cards else None for k, f in self.state.foundations.items()}
            self.recon = reaccepted(self.recon, still, tops, event.seq)
        if isinstance(event, Play) and any(v.code in REFUSED for v in verdicts):
            # The rules' pile stays as it was: what lands there next is judged against that (a misreading, or
            # a play credited to the wrong deck, would otherwise make every later card of the pile illegal too).
            pile = self.state.foundations.get(event.pile)
            demon = (event.player, event.card) if event.source == "demon" and event.player is not None else None
            lawful = pile.cards[-1] if pile and pile.cards else None
            self.recon = refused(self.recon, event.pile, event.seq, lawful, demon)
        if self.on_event is not None:
            self.on_event(event)

    def _calibrate(self, image: np.ndarray, seen: Sequence[Seen]) -> None:
        size = (int(image.shape[1]), int(image.shape[0]))
        if self.calibration is not None and self.calibration.source != "cards":
            self.calibration = self.calibration.scaled_to(size)
            return
        try:
            self.calibration = from_markers(image)
        except CalibrationError as exc:
            if seen and self.calibration is None:
                self.calibration = from_card_sizes([s.quad for s in seen], size)
                self.notes.append(f"no table markers ({exc}); scale taken from the cards' size")

    def feed(self, image: np.ndarray, t: float, frame: int, detections: Detections | None = None) -> list[Event]:
        """Processes one frame; returns the events it implied (round_start included, once)."""
        if detections is None:
            if self.detect is None:
                raise ValueError("the chain has no detector: pass the frame's detections")
            detections = self.detect(image)
        self.seen = self.tracks.update(image, detections)
        if self.arms is not None:
            self.arms.update(image, t)
        self.processed += 1
        before = len(self.events)
        provisional = self.calibration is not None and self.calibration.source == "cards" and self.model is None
        if (
            self.calibration is None
            or provisional
            or (self.model is None and tuple(self.calibration.image_size) != image.shape[1::-1])
        ):
            self._calibrate(image, self.seen)  # until the round starts, markers are looked for in every frame
        if self.calibration is None:
            return []
        if self.model is None:
            self._try_start(t, frame)
            if self.model is None:
                return []
        view = self.model.view(t, frame, self.seen)
        self._watch_middle(view)
        view = replace(view, foundations=self._settled.update(view.foundations), settled=True)
        if self._naming is not None:
            self._naming.views.append(view)
            self._watch_backs(self.model, self._naming)
            if t - self._naming.t < NAMING_WAIT_S and any(
                len(c) < NAMING_SIGHTINGS for c in self._naming.colours.values()
            ):
                return []
            self._name_late()
            return self.events[before:]
        self._step(view.renamed(self._names) if self._names else view)
        return self.events[before:]

    def _step(self, view: TableView) -> None:
        self.recon, events = step(self.recon, view)
        for e in events:
            self._emit(e, view.frame)
        self._call_out(view, view.frame)
        self.last_view = view

    def _watch_middle(self, view: TableView) -> None:
        """How long the whole middle (every foundation's top as seen) has lain unchanged, for Out."""
        # A pile unseen a moment (a hand over it, a reading dropped) keeps its top: only a new top or a new pile is a
        # change (with real models some pile drops out every few frames, and the middle was never still).
        seen = {p.id: p.top for p in view.foundations if p.top is not None}
        changed = self._run == 0 or any(self._middle.get(pid) != top for pid, top in seen.items())
        self._middle.update(seen)
        self._run = 1 if changed else self._run + 1
        if changed:
            self._still_since = view.t

    def _call_out(self, view: TableView, frame: int) -> None:
        """Out, as it happens, for a player whose demon the referee counts as empty and the camera sees empty,
        once play has stopped (the middle unchanged ``OUT_STILL_S``), so plays after it are judged late; one Out a
        round."""
        if (
            self._run < SETTLE_FRAMES
            or view.t - self._still_since < OUT_STILL_S
            or any(isinstance(e, Out) for e in self.events)
        ):
            return
        for pv in view.players:
            player = self.state.players.get(pv.id)
            if player is None or pv.occluded or pv.demon_top is not None or player.demon_left > 0:
                continue
            self._emit(Out(seq=self._take_seq(), t=view.t, player=pv.id, extra={"inferred": True, "frame": frame}),
                       frame)  # fmt: skip
            return

    def _take_seq(self) -> int:
        """The next seq, for an event the chain logs itself rather than the reconstruction (Out, a note)."""
        seq = self.recon.next_seq
        self.recon = replace(self.recon, next_seq=seq + 1)
        return seq

    def _try_start(self, t: float, frame: int) -> None:
        faces = [s for s in self.seen if not s.back and s.card is not None]
        # The dealt table lies still: most cards unmoved (a real detector's quads jitter, and a hand may pass).
        still = len(faces) >= 2 and sum(s.static for s in faces) >= 0.8 * len(faces)
        self._still = self._still + 1 if still else 0
        if self._still < SEAT_FRAMES:
            return
        assert self.calibration is not None
        if self._fit_detector(faces):
            self._still = 0  # the dealt table is looked at again at the new size before the seats are taken
            return
        if not self.calibration.seats:
            try:
                seats = find_seats(self.calibration, self.seen, line_size=self.rules.line_size, players=self.players)
            except ValueError as exc:
                self.notes.append(str(exc))
                return
            self.calibration = self.calibration.with_seats(seats)
        self.model = TableModel(self.calibration, self.rules.line_size, self.arms)
        view = self.model.view(t, frame, self.seen)
        unnamed = [seat.player for seat in self.calibration.seats if seat.back_bgr is None]
        known = [c for _, c in self.players or () if c in BACK_COLOURS]
        if unnamed and (known or not self.players):
            self._naming = _Naming(t, {pid: [] for pid in unnamed}, [view])
            self._watch_backs(self.model, self._naming)
            return
        self._begin(view)

    def _fit_detector(self, faces: Sequence[Seen]) -> bool:
        """Whether the detector, asked to fit its input to the dealt cards' width (``CardDetector.fit_cards``), now
        looks at the frame larger: cards small at its input are found better so, stocks included (a recording
        replayed has no detector to ask)."""
        fit = getattr(self.detect, "fit_cards", None)
        if fit is None or self.calibration is None or not faces:
            return False
        width = card_size_px([s.quad for s in faces])[0]
        side = fit(width, self.calibration.image_size)
        if side is not None:
            self.notes.append(f"the cards are {width:.0f} px wide: the detector looks at the frame {side} px across")
        return side is not None

    def _begin(self, view: TableView) -> None:
        """``round_start``, then the dealt table as the referee's first view (what each player could play)."""
        assert self.calibration is not None
        ids = [p for p, _ in self.players] if self.players else [s.player for s in self.calibration.seats]
        # A player's deck is the colour the roster gives it; a seat's colour stands in where the roster has none
        # (and is what the seat was named by, unless the seats came named in an edited calibration file).
        back = {s.player: s.back for s in self.calibration.seats} | {p: c for p, c in self.players or () if c}
        specs = tuple(PlayerSpec(pid, self.rules.demon_size, back=back.get(pid)) for pid in ids)
        start = RoundStart(seq=0, t=view.t, rules=self.rules_name, players=specs, options=dict(self.options),
                           extra={"frame": view.frame, "calibration": self.calibration.source})  # fmt: skip
        self._emit(start, view.frame)
        self.recon, _ = step(self.recon, view)
        self.last_view = view
        warnings = []
        alike = alike_backs(back.get(pid) for pid in ids)
        if alike:
            warnings.append(f"{' and '.join(alike)} backs look alike to the camera (a fine dark pattern reads as grey): "
                            "their seats may be swapped; check who sits where")  # fmt: skip
        width = card_size_px([s.quad for s in self.seen])[0] if self.seen else None
        if width is not None and width < SMALL_CARD_PX:
            w, h = self.calibration.image_size
            warnings.append(f"the cards are {width:.0f} px wide in this {w}x{h} video, under {SMALL_CARD_PX}: many "
                            "will be misread; let the table fill the frame, or film at a higher resolution")  # fmt: skip
        for why in warnings:
            self.notes.append(why)
            self._note(why, view)

    def _note(self, why: str, view: TableView) -> None:
        """A note of the camera's in the log, at ``view``: the dashboard shows it as the round starts and the record
        keeps it."""
        self._emit(Correction(seq=self._take_seq(), t=view.t, action="note", by="camera", reason=why,
                              extra={"frame": view.frame}), view.frame)  # fmt: skip

    def _watch_backs(self, model: TableModel, naming: _Naming) -> None:
        """The colour of each back seen in line with the row of a seat still waiting for its name (its stock), but
        not one of the colour another seat's stock measured: that deck's, seen from another row (e2e-s120/game00,
        oracle: p3's green stock, measured at the start, lay in line with p2's row at the table's angle; p2's seat,
        blind, was named green by it, and p3's blue)."""
        backs = [s for s in self.seen if s.back and s.colour is not None]
        if not backs:
            return
        seats = model.calibration.seats
        xy = model.calibration.to_table(np.array([s.centre() for s in backs]))
        waiting = [(s.colour, player) for s, p in zip(backs, xy, strict=True)
                   if (player := seat_of_back(seats, p, long_side(model.calibration, s.quad))) in naming.colours
                   and s.colour is not None]  # fmt: skip
        if not waiting:
            return
        taken = {colour_name(s.back_bgr) for s in seats if s.back_bgr is not None}  # (colour_name: ~0.5 ms a call)
        for colour, player in waiting:
            if colour_name(colour) not in taken:
                naming.colours[player].append(colour)

    def _name_late(self) -> None:
        """Names the waiting seats by the backs seen in them (by table order where none was), then gives the
        referee the round from its start."""
        assert self._naming is not None and self.calibration is not None
        naming, self._naming = self._naming, None
        seats = [
            replace(s, back_bgr=bgr, back=colour_name(bgr))
            if (seen := naming.colours.get(s.player)) and (bgr := _median(seen)) is not None
            else s
            for s in self.calibration.seats
        ]
        named = name_seats(seats, self.players)
        self._names = {a.player: b.player for a, b in zip(seats, named, strict=True) if a.player != b.player}
        self.calibration = self.calibration.with_seats(named)
        blind = [b.player for a, b in zip(seats, named, strict=True) if a.back_bgr is None]
        said = f"no back seen in the seats of {', '.join(blind)}: named by their order at the table"
        if blind:
            self.notes.append(
                f"{said} (check them; seats named the wrong way round are put right by swapping their players in the "
                "saved calibration.json and reviewing again with --calibration)"
            )
        first, *rest = naming.views
        self._begin(first.renamed(self._names))
        if blind:
            self._note(f"{said}, so they may be the wrong way round; check who sits where", first)
        for view in rest:
            self._step(view.renamed(self._names))

    def finish(self, t: float, reason: str = "video ended") -> list[Event]:
        """Plays still waiting for evidence decided on what was seen (``reconstruct.settle``), Out for the one
        player whose demon is seen empty and counted empty (when nobody called it), then round_end. A demon seen
        empty while the referee counts cards in it is a top card in a hand as the film ends, not an Out: calling one
        would flag a false Out nobody called."""
        before = len(self.events)
        if not self.started:
            return []
        if self._naming is not None:
            self._name_late()
        frame = self.last_view.frame if self.last_view else 0
        self.recon, settled = settle(self.recon, t, frame)
        for e in settled:
            self._emit(e, frame)
        seq = self.recon.next_seq
        view = self.last_view
        if view is not None and not any(isinstance(e, Out) for e in self.events):
            counted = {pid for pid, p in self.state.players.items() if p.demon_left == 0}
            empty = [p.id for p in view.players if p.demon_top is None and not p.occluded and p.id in counted]
            if len(empty) == 1:
                self._emit(Out(seq=seq, t=view.t, player=empty[0], extra={"inferred": True, "frame": frame}), frame)
                seq += 1
        self._emit(RoundEnd(seq=seq, t=t, reason=reason), frame)
        return self.events[before:]


def _median(colours: Sequence[tuple[float, float, float]]) -> tuple[float, float, float] | None:
    if not colours:
        return None
    m = np.median(np.asarray(colours, np.float64), axis=0)
    return (float(m[0]), float(m[1]), float(m[2]))


class SettledPiles:
    """Each foundation pile as the referee is shown it: a new top or a new pile is passed on once most of the last
    ``SETTLE_WINDOW`` frames that saw the pile showed it, ``SETTLE_FRAMES`` of them at least; a pile unseen for
    ``SETTLE_FRAMES`` frames running is gone. Until then the pile as last settled (moved where it lies)."""

    def __init__(self) -> None:
        self.shown: dict[str, PileView] = {}
        # pile id -> the top it showed in each of the last frames that saw it, and how many frames running it is unseen
        self.recent: dict[str, deque[Card | None]] = {}
        self.unseen: dict[str, int] = {}

    def update(self, piles: Sequence[PileView]) -> tuple[PileView, ...]:
        now = {p.id: p for p in piles}
        for pid in set(now) | set(self.recent):  # a shown pile has its recent frames until it is gone
            pile = now.get(pid)
            if pile is None:
                self.unseen[pid] = self.unseen.get(pid, 0) + 1
                if self.unseen[pid] >= (SETTLE_FRAMES if pid in self.shown else SETTLE_WINDOW):
                    # gone, or never settled and not seen since: a misreading
                    self.shown.pop(pid, None)
                    self.recent.pop(pid, None)
                    del self.unseen[pid]
                continue
            self.unseen[pid] = 0
            recent = self.recent.setdefault(pid, deque(maxlen=SETTLE_WINDOW))
            recent.append(pile.top)
            votes = Counter(recent)
            if votes[pile.top] >= SETTLE_FRAMES and votes[pile.top] * 2 > len(recent):
                self.shown[pid] = pile
            elif pid in self.shown:
                self.shown[pid] = replace(self.shown[pid], x=pile.x, y=pile.y)
        return tuple(self.shown[pid] for pid in sorted(self.shown))
