"""Records what the card models saw in rendered games once, then replays the table model and the referee on it.

A real-model review of a 60 s game takes minutes, nearly all of it in the detector and identifier. The table
model (vision/table.py) and the reconstruction (referee/reconstruct.py) only see the tracker's per-frame cards,
so recording those once lets a change to either be measured on many games in seconds. A replay gives exactly
the review's figures as long as nothing before the table model changed (detector, identifier, tracker); record
again after changing those. The replay decodes the video again and feeds its frames to the chain, which watches
arms over the table in them (vision/arms.py); `--no-arms` replays without.

python scripts/chain_cache.py record out/e2e-s8/game0{0,1,2} --models models --tag v7
python scripts/chain_cache.py record out/e2e-s8/game0{0,1,2} --oracle --tag oracle
python scripts/chain_cache.py replay out/e2e-s8/game0{0,1,2} --tag v7 [--show plays]
"""

from __future__ import annotations

import argparse
import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np

from referee.events import Event
from vision.calibrate import Calibration
from vision.capture import Source
from vision.detections import Detections
from vision.e2e import compare, injected_seqs, load_game
from vision.models import CardDetector
from vision.oracle import oracle_detections
from vision.pipeline import Chain, detect_ahead
from vision.table import Seen

KEEP = ("plays", "recall", "precision", "attribution", "unattributed", "scores_exact", "player_rounds",
        "flags_found", "truth_flags", "flags_false", "flags_missed", "injected_missed", "score_misses", "misattributed",
        "plays_missed", "plays_extra")  # fmt: skip


def _chain(game: Path, **kw: Any) -> tuple[Chain, list[Event], float | None]:
    truth, start, filmed = load_game(game)
    chain = Chain(start.rules, dict(start.options), [(p.id, p.back) for p in start.players], **kw)
    return chain, truth, filmed


def record(
    game: Path,
    models: Path | None,
    tag: str,
    fps: float,
    detector: dict[str, Any] | None = None,
    combine: str | None = None,
    backend: str = "auto",
    detector_size: int | None = None,
) -> dict[str, Any]:
    """Reviews ``game`` with the models (None: the oracle's detections from truth.jsonl), keeping what was seen."""
    source = Source.open(game / "game.mp4")
    every = max(1, round(source.fps / fps))
    rate = max(1, round(source.fps / every))
    if models is None:
        chain, truth, filmed = _chain(game, frame_rate=rate)
        with (game / "truth.jsonl").open(encoding="utf-8") as f:
            lines = f.readlines()
    else:
        from vision.models import CardReader

        reader = CardReader.load(
            models,
            backend=backend,
            watch=True,
            detector_size=detector_size,
            **({"combine": combine} if combine else {}),
        )
        for k, v in (detector or {}).items():
            setattr(reader.detector, k, v)
        chain, truth, filmed = _chain(game, detect=reader.detector, identify=reader.identifier, frame_rate=rate)
        start_imgsz = reader.detector.imgsz
    frames: list[tuple[float, int, tuple[int, ...], list[Seen]]] = []
    calibration: Calibration | None = None
    t = 0.0
    frames_in = (
        ((f, None) for f in source.frames(every))
        if models is None
        else detect_ahead(source.frames(every), reader.detector)
    )
    for frame, found in frames_in:
        t = frame.t
        if models is None:
            if frame.index >= len(lines):
                break
            found = oracle_detections(json.loads(lines[frame.index]))
        chain.feed(frame.image, frame.t, frame.index, found)
        if calibration is None and chain.calibration is not None:
            calibration = chain.calibration  # before the seats are found: the replay finds them again
        frames.append((frame.t, frame.index, frame.image.shape, list(chain.seen)))
    chain.finish(t)
    with (game / f"cache-{tag}.pkl").open("wb") as f:
        # How the detector looked at the round's start, when it may fit its input to the cards (``fit_cards``): the
        # replay asks the same, so it takes the seats from the same frames as the review did.
        fitting = None if models is None else {"imgsz": start_imgsz, "fits": reader.detector.fits,
                                                "fitted": reader.detector.imgsz}  # fmt: skip
        pickle.dump({"models": str(models), "fps": fps, "calibration": calibration, "frames": frames, "end": t,
                     "detector_fit": fitting}, f)  # fmt: skip
    return compare(truth, chain.events, until=filmed, injected=injected_seqs(game))


class _Fitting:
    """Stands in for the detector of a recording made with it fitting its input to the cards: decides as it did (the
    imgsz grows once), finds nothing (the recorded cards come from ``_Replayed``)."""

    def __init__(self, imgsz: int, fitted: int | None) -> None:
        self.imgsz, self.fits, self.fitted = imgsz, True, fitted
        self.backend = "recorded"  # (the side it grew to is the recording's: it may have been an int8 export's)

    def fit_cards(self, card_px: float, frame: tuple[int, int]) -> int | None:
        side = CardDetector.fit_cards(self, card_px, frame)  # type: ignore[arg-type]
        return side if side is None or self.fitted is None else self.fitted

    def __call__(self, image: np.ndarray) -> None:
        return None


class _Replayed:
    """Stands in for the tracker: hands back the recorded cards frame by frame."""

    def __init__(self, frames: list[tuple[float, int, tuple[int, ...], list[Seen]]]) -> None:
        self._seen = iter([s for *_, s in frames])

    def update(self, image: np.ndarray, detections: Detections) -> list[Seen]:
        return next(self._seen)


def replay(game: Path, tag: str, arms: bool = True) -> tuple[dict[str, Any], Chain]:
    with (game / f"cache-{tag}.pkl").open("rb") as f:
        cache = pickle.load(f)
    chain, truth, filmed = _chain(game, calibration=cache["calibration"])
    chain.tracks = _Replayed(cache["frames"])  # type: ignore[assignment]
    fitting = cache.get("detector_fit")
    chain.detect = (  # type: ignore[assignment]
        _Fitting(fitting["imgsz"], fitting.get("fitted")) if fitting and fitting["fits"] else (lambda image: None)
    )
    # The frames themselves are fed again (the chain watches arms over the table in them); the cards are replayed.
    video = Source.open(game / "game.mp4").frames(1) if arms else iter(())
    if not arms:
        chain.arms = None
    frame = next(video, None)
    for t, index, shape, _ in cache["frames"]:
        while frame is not None and frame.index < index:
            frame = next(video, None)
        image = frame.image if frame is not None and frame.index == index else None
        chain.feed(np.broadcast_to(np.zeros(1, np.uint8), shape) if image is None else image, t, index)
    chain.finish(cache["end"])
    return compare(truth, chain.events, until=filmed, injected=injected_seqs(game)), chain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("record", "replay"))
    ap.add_argument("games", nargs="+", type=Path, help="folders made by `demonref evaluate e2e` / `render-game`")
    ap.add_argument("--models", type=Path, default=Path("models"))
    ap.add_argument("--oracle", action="store_true", help="record the oracle's readings (truth.jsonl), not the models'")
    ap.add_argument("--tag", default="models", help="names the recording: GAME/cache-TAG.pkl")
    ap.add_argument("--fps", type=float, default=15.0)
    ap.add_argument("--detector-iou", type=float, help="record with this suppression IoU (default: WATCHING)")
    ap.add_argument(
        "--detector-imgsz", type=int, help="record with the detector at this input size (default: WATCHING's)"
    )
    ap.add_argument("--same-card", type=float, help="record with this same-card distance (0: none)")
    ap.add_argument("--combine", choices=("max", "sum"), help="record with this pooling of the identifier's views")
    ap.add_argument("--backend", default="auto", help="auto, int8, openvino, onnx or torch")
    ap.add_argument("--no-arms", action="store_true", help="replay without watching arms over the table")
    ap.add_argument("--show", choices=("plays",), help="also list the plays misattributed, missed and extra")
    args = ap.parse_args()
    total: dict[str, float] = {}
    for game in args.games:
        if args.action == "record":
            detector: dict[str, Any] = {} if args.detector_iou is None else {"iou": args.detector_iou}
            if args.same_card is not None:
                detector["same_card_gap"] = args.same_card or None
            r = record(game, None if args.oracle else args.models, args.tag, args.fps, detector, args.combine,
                       args.backend, args.detector_imgsz)  # fmt: skip
        else:
            r, _ = replay(game, args.tag, arms=not args.no_arms)
        keep = KEEP if args.show else KEEP[:-3]
        print(game, json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items() if k in keep}),
              flush=True)  # fmt: skip
        for k in ("plays", "unattributed", "scores_exact", "player_rounds", "flags_found", "truth_flags", "injected",
                  "injected_flagged"):  # fmt: skip
            total[k] = total.get(k, 0) + r[k]
        total["hit"] = total.get("hit", 0) + r["recall"] * r["plays"]
        total["false"] = total.get("false", 0) + len(r["flags_false"])
        total["extra"] = total.get("extra", 0) + len(r["plays_extra"])
        total["right"] = total.get("right", 0) + r["attribution"] * r["recall"] * r["plays"]  # about: extras aside
    if len(args.games) > 1:
        print("all", json.dumps({"plays": total["plays"], "recovered": round(total["hit"]),
                                 "recall": round(total["hit"] / total["plays"], 3),
                                 "precision": round(total["hit"] / max(1, total["hit"] + total["extra"]), 3),
                                 "attributed_right": round(total["right"]),
                                 "scores_exact": f"{total['scores_exact']:.0f}/{total['player_rounds']:.0f}",
                                 "flags": f"{total['flags_found']:.0f}/{total['truth_flags']:.0f}",
                                 "injected_flagged": f"{total['injected_flagged']:.0f}/{total['injected']:.0f}",
                                 "false_flags": total["false"]}))  # fmt: skip


if __name__ == "__main__":
    main()
