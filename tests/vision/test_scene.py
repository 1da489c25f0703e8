"""Rendered scenes: truth quads on the card pixels, visible fractions of constructed overlaps, determinism,
datasets (held-out designs only in test; labels load with ultralytics' loader) and rendered games."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.cards import STANDARD_52, Card
from referee.events import read_log
from referee.game import replay
from referee.simulate import simulate
from vision.synth import dataset
from vision.synth.decks import Design, load_designs
from vision.synth.faces import card_size
from vision.synth.render import choose_decks, render_game
from vision.synth.scene import LADDER_STEP_MM, SceneRenderer, SceneStyle, TableGeometry

PALETTE = {
    str(c): (int(40 + (i * 37) % 200), int(60 + (i * 91) % 190), int(30 + (i * 53) % 210))
    for i, c in enumerate(STANDARD_52)
}


def solid_face(_player: str, card: Card) -> np.ndarray:
    """Each identity a flat colour, so its pixels can be found in the frame."""
    w, h = card_size(160)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., :3] = PALETTE[str(card)]
    img[..., 3] = 255
    return img


def solid_back(_player: str) -> np.ndarray:
    w, h = card_size(160)
    img = np.zeros((h, w, 4), np.uint8)
    img[..., :3] = (255, 0, 255)
    img[..., 3] = 255
    return img


def plain_style(**changes: object) -> SceneStyle:
    base = {"surface": "laminate", "size": (1280, 720), "tilt": 0.0, "yaw": 0.0, "fill": 0.95, "k1": 0.0, "blur": 0.0,
            "noise": 0.0, "jpeg": None, "glare": False, "clutter": False}  # fmt: skip
    base.update(changes)
    return SceneStyle(**base)  # type: ignore[arg-type]


def scene(style: SceneStyle, players: int = 3, seed: int = 5) -> tuple[SceneRenderer, object]:
    result = simulate(players=players, seed=seed)
    ids = [p.id for p in result.players]
    renderer = SceneRenderer(
        TableGeometry.make(players), ids, solid_face, solid_back, style, seed=seed, markers=False, hands=False
    )
    renderer.light[:] = 160  # neutral light: colours stay as drawn
    return renderer, result


@pytest.mark.parametrize(
    "camera", [{}, {"tilt": 0.25, "yaw": 8.0}, {"k1": -0.07, "tilt": 0.1}, {"k1": 0.04, "yaw": -6.0}]
)
def test_quads_lie_on_the_card_pixels(camera: dict[str, float]) -> None:
    renderer, result = scene(plain_style(**camera))
    state = result.table_at(result.duration / 3)
    frame, truths = renderer.render(state)
    checked = 0
    for t in truths:
        if t.card == "back" or t.visible < 0.999 or t.zone.startswith("foundation"):
            continue
        colour = np.array(PALETTE[t.card])
        match = (np.abs(frame.astype(int) - colour).sum(axis=2) < 40).astype(np.uint8)
        quad = np.zeros_like(match)
        cv2.fillConvexPoly(quad, np.round(np.array(t.quad)).astype(np.int32), 1)
        inside = match[quad > 0].mean()
        # The card's colour fills its quad, and does not spill far outside it.
        grown = cv2.dilate(quad, np.ones((5, 5), np.uint8))
        outside = (match * (1 - grown)).sum()
        if match.sum() - outside < quad.sum() * 0.5:
            continue  # the same colour elsewhere (another deck's copy of this identity) makes the count ambiguous
        assert inside > 0.9, (t.card, t.zone, inside)
        checked += 1
    assert checked >= 10


def test_visible_fractions_of_a_ladder() -> None:
    renderer, result = scene(plain_style(), players=2, seed=11)
    for ev_t in np.linspace(5, result.duration, 40):
        state = result.table_at(float(ev_t))
        ladders = [lad for p in state.players.values() for lad in p.table.line if len(lad) >= 3]  # type: ignore[union-attr]
        if ladders:
            break
    else:
        pytest.skip("no ladder of three in this round")
    _, truths = renderer.render(state)
    by_card = {(t.card, t.owner, t.zone): t for t in truths}
    owner = next(pid for pid, p in state.players.items() if any(lad is ladders[0] for lad in p.table.line))  # type: ignore[union-attr]
    zone = next(f"line:{i + 1}" for i, lad in enumerate(state.players[owner].table.line) if lad is ladders[0])  # type: ignore[union-attr]
    cards = [by_card[(str(c), owner, zone)] for c in ladders[0]]
    assert cards[-1].visible > 0.97 and cards[-1].index_visible
    for covered in cards[:-1]:
        # A covered ladder card shows its top strip (one ladder step of the card's 88 mm) with its index.
        assert abs(covered.visible - LADDER_STEP_MM / 88) < 0.08
        assert covered.index_visible


def test_same_seed_same_frame() -> None:
    style = SceneStyle.random(np.random.default_rng(3), (640, 360))
    frames = []
    for _ in range(2):
        renderer, result = scene(style, seed=8)
        frame, truths = renderer.render(result.table_at(20.0), result.motions, 20.0)
        frames.append((frame.tobytes(), [t.to_json() for t in truths]))
    assert frames[0] == frames[1]


def test_markers_are_found_where_the_truth_says() -> None:
    result = simulate(players=4, seed=2)
    ids = [p.id for p in result.players]
    renderer = SceneRenderer(
        TableGeometry.make(4), ids, solid_face, solid_back, plain_style(tilt=0.15, yaw=5.0), seed=2
    )
    frame, _ = renderer.render(result.table_at(10.0))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, found, _ = detector.detectMarkers(frame)
    assert found is not None and sorted(found.ravel().tolist()) == [0, 1, 2, 3]
    for marker_id, c in zip(found.ravel(), corners, strict=True):
        expected = renderer.camera.project(renderer._canvas(np.array(renderer.marker_positions()[marker_id])))[0]
        assert np.linalg.norm(c.reshape(4, 2).mean(axis=0) - expected) < 3


def test_heldout_designs_never_in_training() -> None:
    designs = load_designs()
    rng = np.random.default_rng(0)
    for _ in range(30):
        train = choose_decks(["a", "b"], ["red", "blue"], rng, heldout=False, designs=designs)
        test = choose_decks(["a", "b"], ["red", "blue"], rng, heldout=True, designs=designs)
        assert not any(d.heldout for d in train.faces.values())
        assert all(d.heldout for d in test.faces.values())
    for i in range(200):
        plan = dataset.plan_frame(4, i)
        assert plan.heldout == (plan.split == "test")


def test_procedural_path_needs_no_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Design, "available", lambda self: self.kind == "procedural")
    decks = choose_decks(["a", "b", "c"], ["red", "blue", "green"], np.random.default_rng(1), heldout=False)
    assert all(d.kind == "procedural" for d in decks.faces.values())
    assert decks.face_source(120)("a", Card.parse("9D")).shape[2] == 4


def test_detect_dataset_loads_with_ultralytics(tmp_path: Path) -> None:
    summary = dataset.build(tmp_path / "det", kind="detect", frames=4, seed=3, max_width=640)
    assert sum(summary["splits"].values()) == 4  # type: ignore[attr-defined]
    labels = list((tmp_path / "det" / "labels").rglob("*.txt"))
    rows = [line.split() for p in labels for line in p.read_text().splitlines() if line]
    assert rows and all(len(r) == 9 and r[0] in ("0", "1") for r in rows)
    assert all(0 <= float(v) <= 1 for r in rows for v in r[1:])
    # Resuming does no work and changes nothing.
    before = sorted((p.name, p.stat().st_size) for p in (tmp_path / "det").rglob("*.jpg"))
    dataset.build(tmp_path / "det", kind="detect", frames=4, seed=3, max_width=640)
    assert sorted((p.name, p.stat().st_size) for p in (tmp_path / "det").rglob("*.jpg")) == before
    ultralytics = pytest.importorskip("ultralytics.data.utils")
    data = ultralytics.check_det_dataset(str(tmp_path / "det" / "data.yaml"), autodownload=False)
    assert data["nc"] == 2 and data["names"] == {0: "card", 1: "back"}
    from ultralytics.data.dataset import YOLODataset

    split = next(s for s in ("train", "val", "test") if (tmp_path / "det" / "images" / s).exists())
    ds = YOLODataset(img_path=str(tmp_path / "det" / "images" / split), data=data, task="obb", augment=False)
    assert len(ds.labels) >= 1 and ds.labels[0]["segments"] is not None


@pytest.fixture
def rendered_widths(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The widths the dataset builder asks frames to be rendered at, in order."""
    widths: list[int | None] = []
    render = dataset.render_frame

    def recorded(plan: dataset.FramePlan, *, max_width: int | None = None) -> Any:
        widths.append(max_width)
        return render(plan, max_width=max_width)

    monkeypatch.setattr(dataset, "render_frame", recorded)
    return widths


def test_identify_crops(tmp_path: Path, rendered_widths: list[int | None]) -> None:
    widths = rendered_widths
    dataset.build(tmp_path / "id", kind="identify", frames=2, seed=1)
    assert len(widths) == 2 and set(widths) <= set(dataset.IDENTIFY_WIDTHS)  # a camera's sizes, not up to 4K
    crops = list((tmp_path / "id").rglob("*.png"))
    assert crops and all(p.parent.name in dataset.CLASSES for p in crops)
    assert {"card", "index", "none"} <= {p.stem.split("_")[-1] for p in crops} <= {"card", "index", "none", "back"}
    assert all((p.parent.name == dataset.NOT_A_CARD) == p.stem.endswith(("_none", "_back")) for p in crops)
    img = cv2.imread(str(crops[0]))
    assert img.shape[:2] in ((dataset.CROP_H, dataset.CROP_W), (dataset.INDEX_H, dataset.INDEX_W))
    assert len(list((tmp_path / "id" / "train").iterdir())) == 53
    built = json.loads((tmp_path / "id" / "build.json").read_text())
    assert built["index_part"] == list(dataset.INDEX_PART) and built["widths"] == list(dataset.IDENTIFY_WIDTHS)


def test_negative_places_show_no_card_face() -> None:
    """Card-sized places for the identifier's ``none`` class overlap no face-up card by more than 10%."""
    from vision.synth.scene import CardTruth

    face = CardTruth("QS", "p1", ((100.0, 100.0), (163.0, 100.0), (163.0, 188.0), (100.0, 188.0)), 1.0, True, "waste")
    back = CardTruth(
        "back", "p1", ((300.0, 100.0), (363.0, 100.0), (363.0, 188.0), (300.0, 188.0)), 1.0, False, "demon"
    )
    rng = np.random.default_rng(0)
    quads = dataset.negative_quads(640, 360, [face, back], rng, 50)
    assert len(quads) == 50
    f = np.array(face.quad, np.float32)
    for q in quads:
        assert cv2.intersectConvexConvex(q, f)[0] <= 0.1 * cv2.contourArea(f) + 1e-6
        assert 40 < np.linalg.norm(q[1] - q[0]) < 120  # about a card's size
    assert any(cv2.intersectConvexConvex(q, np.array(back.quad, np.float32))[0] > 0 for q in quads)


def test_rendered_game_replays_with_exactly_the_injected_flags(tmp_path: Path) -> None:
    summary = render_game(tmp_path / "g", players=3, seed=4, inject=("wrong-rank",), size=(640, 360), max_seconds=4)
    assert (tmp_path / "g" / "game.mp4").stat().st_size > 0
    cap = cv2.VideoCapture(str(tmp_path / "g" / "game.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == summary["frames"] == 61
    truth = [json.loads(line) for line in (tmp_path / "g" / "truth.jsonl").read_text().splitlines()]
    assert len(truth) == 61 and truth[0]["cards"] and set(truth[0]["cards"][0]) >= {"card", "quad", "visible", "zone"}
    events = read_log(tmp_path / "g" / "events.jsonl")
    state = replay(events)
    injected = summary["injected"]
    assert sorted(v.seq for v in state.flags if v.code != "conflict") == sorted(injected.values())  # type: ignore[union-attr]
    assert all(p.back for p in events[0].players)  # type: ignore[attr-defined]


def test_parallel_build_makes_the_same_files(tmp_path: Path) -> None:
    one = dataset.build(tmp_path / "one", kind="detect", frames=3, seed=9, max_width=480)
    two = dataset.build(tmp_path / "two", kind="detect", frames=3, seed=9, max_width=480, workers=2)
    assert one["splits"] == two["splits"]
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.txt"))
    assert files == sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*.txt"))
    assert all((tmp_path / "one" / f).read_text() == (tmp_path / "two" / f).read_text() for f in files)


def test_cards_cut_by_the_frame_edge_count_only_what_the_camera_sees() -> None:
    # Zoomed in so the outer cards fall partly or wholly outside the frame.
    renderer, result = scene(plain_style(fill=1.8), players=4, seed=3)
    frame, truths = renderer.render(result.table_at(result.duration / 2))
    h, w = frame.shape[:2]
    cut = 0
    for t in truths:
        quad = np.array(t.quad, np.float32)
        assert quad[:, 0].max() > 0 and quad[:, 1].max() > 0 and quad[:, 0].min() < w and quad[:, 1].min() < h
        share = cv2.intersectConvexConvex(quad, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))[0] / abs(
            cv2.contourArea(quad)
        )
        assert t.visible <= share + 1e-3
        for q in t.index_quads:
            assert all(0 <= x <= w and 0 <= y <= h for x, y in q)
        assert t.index_visible == bool(t.index_quads)
        cut += share < 0.99
    assert cut >= 3


def test_an_illegal_play_is_seen_lying_on_its_pile_then_taken_back() -> None:
    from referee.events import Play
    from referee.simulate import MISPLAY_SECONDS
    from vision.synth.render import make_renderer

    result = simulate(players=3, seed=4, inject=("wrong-suit",))
    seq = result.injected["wrong-suit"]
    play = next(e for e in result.events if e.seq == seq)
    assert isinstance(play, Play)
    resting = [m for m in result.motions if m.resting and m.card == play.card and m.t0 == play.t]
    assert len(resting) == 1 and resting[0].t1 - resting[0].t0 == pytest.approx(MISPLAY_SECONDS)
    renderer = make_renderer(result, 4, heldout=False, size=(960, 540), markers=False)

    def zones(t: float) -> list[str]:
        state = result.table_at(t)
        _, truths = renderer.render(state, result.motions, t)
        return [tr.zone for tr in truths if tr.card == str(play.card) and tr.owner == play.player]

    assert zones(play.t + MISPLAY_SECONDS / 2) == [f"foundation:{play.pile}"]  # on the pile, not at its source
    assert zones(play.t + MISPLAY_SECONDS + 2.0) == [play.source]  # back where it came from


def test_a_card_landing_on_a_pile_while_an_illegal_card_lies_there_lies_over_it() -> None:
    """p2's illegal 5H lies on the hearts pile for its 2.5 s; p3's 6H lands there 0.25 s after it. The 6H was put on
    the pile as it lay, so it lies over the 5H, not under it (e2e-s49/game01 drew the illegal card over a 4D that
    landed after it, and the camera was right to judge it as landing on the 4D)."""
    from referee.events import Play
    from vision.synth.render import make_renderer

    result = simulate(players=4, seed=0, inject=("wrong-suit",))
    plays = [e for e in result.events if isinstance(e, Play)]
    lying, later = next(
        (m, e)
        for m in result.motions
        if m.resting
        for e in plays
        if f"foundation:{e.pile}" == m.dest and m.t0 < e.t < m.t0 + 1.0 and e.card != m.card
    )
    assert (str(lying.card), str(later.card)) == ("5H", "6H")
    renderer = make_renderer(result, 0, heldout=False, size=(960, 540), markers=False)

    def seen(t: float) -> dict[tuple[str, str | None], float]:
        _, truths = renderer.render(result.table_at(t), result.motions, t)
        return {(tr.card, tr.owner): tr.visible for tr in truths if tr.zone == lying.dest}

    before = seen((lying.t0 + later.t) / 2)  # the illegal card on top, nothing on it yet
    assert before[(str(lying.card), lying.player)] > 0.9
    after = seen(later.t + 0.3)
    assert after[(str(later.card), later.player)] > 0.95
    assert after[(str(lying.card), lying.player)] < 0.6


def test_a_refused_pile_of_its_own_keeps_its_place_when_another_pile_starts() -> None:
    """A 3C put down as a pile of its own (not an Ace) lies there 2.5 s; an AS started meanwhile goes beside it,
    not onto it, and the 3C does not jump to another place (e2e-s29/game01: a 7D so pushed on looked like a second
    illegal pile)."""
    from referee.events import Play
    from vision.synth.render import make_renderer

    result = simulate(players=3, seed=29, inject=("not-an-ace",))
    play = next(e for e in result.events if e.seq == result.injected["not-an-ace"])
    ace = next(e for e in result.events if isinstance(e, Play) and e.card == Card.parse("AS") and e.t > play.t)
    assert isinstance(play, Play) and ace.t < play.t + 2.0
    renderer = make_renderer(result, 29, heldout=False, size=(960, 540), markers=False)

    def centre(t: float, card: Card, zone: str) -> np.ndarray:
        _, truths = renderer.render(result.table_at(t), result.motions, t)
        quads = [np.asarray(tr.quad, float) for tr in truths if tr.card == str(card) and tr.zone == zone]
        assert len(quads) == 1
        return quads[0].mean(axis=0)

    refused = f"foundation:{play.pile}"
    before, after = centre(play.t + 0.3, play.card, refused), centre(ace.t + 0.3, play.card, refused)
    assert np.linalg.norm(after - before) < 5  # px: it lies where it was put
    assert np.linalg.norm(centre(ace.t + 0.3, ace.card, f"foundation:{ace.pile}") - after) > 30


def test_face_down_cards_are_cut_as_no_card_for_the_identifier() -> None:
    """A back the detector takes for a face must be read as no card: backs are cut (at most two a frame, only
    big enough ones in full view) into the ``none`` class, with a detector's jitter when one is given."""
    from vision.synth.scene import CardTruth

    frame = np.random.default_rng(0).integers(0, 255, (720, 1280, 3), dtype=np.uint8)

    def back(x: float, side: float = 63.0, visible: float = 1.0) -> CardTruth:
        quad = ((x, 100.0), (x + side, 100.0), (x + side, 100.0 + side * 88 / 63), (x, 100.0 + side * 88 / 63))
        return CardTruth("back", "p1", quad, visible, False, "stock")

    truths = [back(100), back(300), back(500), back(700, side=20), back(900, visible=0.3)]
    got = dataset.crops(frame, truths, np.random.default_rng(1), negatives=np.random.default_rng(2))
    cut = [img for identity, kind, img in got if kind == "back"]
    assert all(identity == dataset.NOT_A_CARD for identity, kind, _ in got)
    assert len(cut) == dataset.BACK_NEGATIVES_PER_FRAME == 2
    assert all(img.shape[:2] == (dataset.CROP_H, dataset.CROP_W) for img in cut)
    small_or_covered = dataset.crops(frame, truths[3:], None, negatives=np.random.default_rng(2))
    assert not [k for _, k, _ in small_or_covered if k == "back"]


def test_a_close_up_with_cards_too_big_for_a_negative_place_gives_none() -> None:
    """A frame whose cards are more than half its height leaves no card-sized place: no negatives, no crash."""
    from vision.synth.scene import CardTruth

    big = CardTruth("QS", "p1", ((10.0, 10.0), (250.0, 10.0), (250.0, 345.0), (10.0, 345.0)), 1.0, True, "waste")
    assert dataset.negative_quads(640, 360, [big], np.random.default_rng(0), 5) == []


def test_identifier_crops_are_jittered_as_far_as_a_detectors_quads_are_off() -> None:
    """The crops' corners move as the recipe says (the detector's median worst corner is ~13% of a width off),
    the card stays about its size, and without a generator the quad is left as it is."""
    q = np.array([[100.0, 100.0], [163.0, 100.0], [163.0, 188.0], [100.0, 188.0]])
    rng = np.random.default_rng(0)
    moved = [dataset._jitter(q, rng) for _ in range(2000)]
    worst = np.median([np.abs(m - q).max() / 63 for m in moved])
    assert 0.08 < worst < 0.2
    widths = [np.linalg.norm(m[1] - m[0]) / 63 for m in moved]
    assert 0.95 < np.median(widths) < 1.05 and np.std(widths) < 0.15
    assert dataset._jitter(q, None) is q


def test_crops_cut_from_a_detectors_quads_are_labelled_with_what_each_view_shows() -> None:
    """``seen_crops``: a card lying clear gives its whole view and both corners; a covered card only the corner
    where its uncovered index lies (cut where the index is, whichever way round the quad was found); a covered
    card with no index showing, a quad matching no card, and a card too small to read give nothing."""
    from vision.detections import Detections
    from vision.synth.scene import CardTruth

    frame = np.full((720, 1280, 3), 200, np.uint8)
    w, h = 70.0, 70.0 * 88 / 63

    def card(name: str, x: float, visible: float, corners: tuple[int, ...], side: float = w) -> CardTruth:
        tall = side * 88 / 63
        quad = ((x, 100.0), (x + side, 100.0), (x + side, 100.0 + tall), (x, 100.0 + tall))
        index = {  # small quads round each index: top-left, and bottom-right (the card turned half a turn)
            0: ((x + 3, 103.0), (x + 12, 103.0), (x + 12, 120.0), (x + 3, 120.0)),
            2: ((x + side - 12, 100 + tall - 20), (x + side - 3, 100 + tall - 20), (x + side - 3, 100 + tall - 3),
                (x + side - 12, 100 + tall - 3)),
        }  # fmt: skip
        return CardTruth(name, "p1", quad, visible, bool(corners), "waste", tuple(index[c] for c in corners))

    clear, covered, hidden, small = (
        card("7S", 100, 1.0, (0, 2)),
        card("3H", 300, 0.3, (2,)),
        card("9D", 500, 0.2, ()),
        card("KC", 700, 1.0, (0, 2), side=20),
    )
    x = 300 + w - 12
    frame[int(100 + h - 20) : int(100 + h - 3), int(x) : int(x + 9)] = (0, 0, 255)  # the covered card's index
    nowhere = np.array([[900, 400], [970, 400], [970, 498], [900, 498]], float)
    quads = [np.array(t.quad) for t in (clear, covered, hidden, small)] + [nowhere]
    quads[1] = np.roll(quads[1], 2, axis=0)  # found the other way round
    found = Detections(np.array(quads), np.full(5, 0.9), np.zeros(5, int))
    got = dataset.seen_crops(frame, [clear, covered, hidden, small], found)
    assert sorted((identity, kind) for identity, kind, _ in got) == [
        ("3H", "seen-index"), ("7S", "seen-card"), ("7S", "seen-index"), ("7S", "seen-index")
    ]  # fmt: skip
    red = next(img for identity, _, img in got if identity == "3H")
    assert img_share(red, (0, 0, 255)) > 0.05  # the crop is cut round the uncovered index
    assert all(img.shape[:2] == (dataset.INDEX_H, dataset.INDEX_W) for _, k, img in got if k == "seen-index")


def img_share(img: np.ndarray, bgr: tuple[int, int, int]) -> float:
    return float(np.all(np.abs(img.astype(int) - bgr) < 40, axis=2).mean())


def test_a_detector_for_crops_is_refused_for_detection_builds_and_when_missing(tmp_path: Path) -> None:
    weights = Path(__file__).resolve().parents[2] / "models" / "detector.pt"
    with pytest.raises(dataset.DatasetError, match="kind identify"):
        dataset.build(tmp_path / "d", kind="detect", frames=1, detector=weights)
    with pytest.raises(dataset.DatasetError, match="no such detector"):
        dataset.build(tmp_path / "i", kind="identify", frames=1, detector=tmp_path / "nope.pt")
    assert not (tmp_path / "i").exists()  # nothing half-built


def test_an_identify_build_with_a_detector_adds_crops_cut_from_its_quads(tmp_path: Path) -> None:
    weights = Path(__file__).resolve().parents[2] / "models" / "detector.pt"
    built = dataset.build(tmp_path / "id", kind="identify", frames=1, seed=3, detector=weights)
    kinds = {p.stem.split("_")[-1] for p in (tmp_path / "id").rglob("*.png")}
    assert {"card", "index", "seen-card", "seen-index"} <= kinds
    assert built["seen_by"] == json.loads((tmp_path / "id" / "build.json").read_text())["seen_by"]


def test_crops_for_a_farther_camera_come_from_narrower_frames_and_smaller_cards(
    tmp_path: Path, rendered_widths: list[int | None]
) -> None:
    widths = rendered_widths
    built = dataset.build(tmp_path / "id", kind="identify", frames=2, seed=1, widths=(960,), min_card_px=24)
    assert widths == [960, 960] and built["widths"] == [960] and built["min_card_px"] == 24
    with pytest.raises(dataset.DatasetError, match="320 px"):
        dataset.build(tmp_path / "bad", kind="identify", frames=1, widths=(100,))
    from vision.synth.scene import CardTruth

    frame = np.full((720, 1280, 3), 200, np.uint8)
    small = CardTruth("5H", "p1", ((100, 100), (130, 100), (130, 142), (100, 142)), 1.0, True, "waste")
    assert dataset.crops(frame, [small]) == []  # 30 px: narrower than the default's 36
    assert {k for _, k, _ in dataset.crops(frame, [small], min_px=24)} == {"card", "index"}


def test_loose_cards_each_get_a_truth_on_their_own_pixels() -> None:
    """Loose groups (overlapping pairs, fans, rows, spread hands) on a table with no game: every card drawn gets a
    truth, a card wholly seen fills its quad with its colour, and a card under another shows only what is left."""
    renderer, result = scene(plain_style(), players=3, seed=5)
    renderer.game = False
    placed = renderer.scatter(np.random.default_rng(4), 6, anywhere=True)
    assert len(placed) >= 12 and {p.zone for p in placed} == {"loose"}
    frame, truths = renderer.render(result.table_at(5.0))
    assert all(t.zone == "loose" for t in truths)
    assert len(truths) == len(placed)  # a table with no game shows only the loose cards
    seen = [t for t in truths if t.card != "back" and t.visible > 0.999]
    covered = [t for t in truths if t.visible < 0.9]
    assert seen and covered, "six groups of two to eight cards overlap somewhere"
    for t in seen:
        match = (np.abs(frame.astype(int) - np.array(PALETTE[t.card])).sum(axis=2) < 40).astype(np.uint8)
        quad = np.zeros_like(match)
        cv2.fillConvexPoly(quad, np.round(np.array(t.quad)).astype(np.int32), 1)
        assert match[quad > 0].mean() > 0.9, t.card
    # With the game on, the loose cards come on top of it.
    renderer.game = True
    _, truths = renderer.render(result.table_at(5.0))
    zones = {t.zone for t in truths}
    assert "loose" in zones and "demon" in zones


def test_some_detection_frames_have_loose_cards_and_half_of_those_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dataset, "LOOSE_SHARE", 1.0)
    zones = []
    for i in range(4):
        _, truths = dataset.render_frame(dataset.plan_frame(77, i), max_width=640)
        zones.append({t.zone for t in truths})
    assert all("loose" in z for z in zones)
    assert any(z == {"loose"} for z in zones) and any(len(z) > 1 for z in zones)


def test_a_poker_chip_has_spots_round_its_rim() -> None:
    from vision.synth import textures

    canvas = np.zeros((200, 200, 3), np.uint8)
    cv2.circle(canvas, (100, 100), 60, (20, 20, 160), -1)
    for seed in range(5):
        chip = canvas.copy()
        textures._chip_spots(chip, np.random.default_rng(seed), (100, 100), 60)
        changed = np.abs(chip.astype(int) - canvas).sum(axis=2) > 60
        ys, xs = np.nonzero(changed)
        r = np.hypot(xs - 100, ys - 100)
        assert changed.sum() > 150 and r.min() > 0.6 * 60 and r.max() < 1.05 * 60
        # Spots apart from each other: the changed pixels do not form one ring.
        angles = np.sort(np.arctan2(ys - 100, xs - 100))
        assert np.diff(np.concatenate([angles, angles[:1] + 2 * np.pi])).max() > 0.15


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("round_table", [False, True])
def test_completed_piles_are_set_aside_clear_of_the_other_players_cards(players: int, round_table: bool) -> None:
    """Round a table of six, the spot beyond a player's stock is on the next seat's demon (e2e-s149/game00: the KC
    set aside there was read as that neighbour's card): every seat's set-aside piles, three of them, lie clear of
    every other seat's demon, line, waste and stock, and of the foundations' places. Round tables and tables of up
    to four have room at every seat; elsewhere a seat with none keeps its piles off the table."""
    geometry = TableGeometry.make(players, round_table=round_table)
    p = geometry.pitch
    x0 = -p * 3
    row = [x0 + p * k for k in range(5)] + [x0 + p * 5.15, x0 + p * 6.6]
    cells = geometry.foundation_cells()[: 4 * players]
    diagonal = math.hypot(63.0, 88.0)
    for k, seat in enumerate(geometry.seats):
        aside = geometry.aside(k)
        if aside is None:
            assert not round_table and players > 4
            continue
        taken = [o.to_table(x, 0) for j, o in enumerate(geometry.seats) if j != k for x in row] + cells
        for n in range(3):
            spot = seat.to_table(aside[0] + n * 10, aside[1] - n * 6)
            assert min(float(np.linalg.norm(spot - o)) for o in taken) >= diagonal


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("round_table", [False, True])
def test_every_seat_has_a_full_row_clear_of_its_neighbours(players: int, round_table: bool) -> None:
    """Eight players at an oblong table of 1.7 m sat with the nearest cards of two seats 42 mm apart and their line
    places squeezed to 57 mm, narrower than a card (e2e-s148/game00: p4's stock lay on p3's demon). The table grows
    until every seat's demon, line, waste and stock lie a card's diagonal from every other seat's, at the full pitch;
    tables that already had room (up to four players, round ones up to six) keep their size, so their renders do
    not change."""
    geometry = TableGeometry.make(players, round_table=round_table)
    p = geometry.pitch
    assert p == pytest.approx(74.0)
    row = [-p * 3 + p * k for k in range(5)] + [-p * 3 + p * 5.15, -p * 3 + p * 6.6]
    places = [[seat.to_table(x, 0) for x in row] for seat in geometry.seats]
    nearest = min(
        float(np.linalg.norm(a - b))
        for i, mine in enumerate(places)
        for theirs in places[i + 1 :]
        for a in mine
        for b in theirs
    )
    assert nearest >= math.hypot(63.0, 88.0)
    if players <= 4 or (round_table and players <= 6):
        assert geometry.width == 800.0 + 110.0 * players
