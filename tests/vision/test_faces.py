"""Procedural faces and backs (no package needed), the design registry, and packaged artwork when installed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import STANDARD_52, Card
from vision.synth import artwork
from vision.synth.decks import load_designs, split_designs
from vision.synth.faces import (
    ASPECT,
    BACK_COLOURS,
    BACK_PATTERNS,
    FaceStyle,
    index_box,
    render_back,
    render_face,
)

H = 264


def ink(img: np.ndarray, style: FaceStyle) -> np.ndarray:
    """Pixels clearly darker than the paper."""
    diff = np.abs(img[..., :3].astype(int) - np.array(style.paper)).sum(axis=2)
    return (diff > 120) & (img[..., 3] > 0)


@pytest.mark.parametrize("seed", range(4))
def test_face_geometry_and_corners(seed: int) -> None:
    style = FaceStyle.from_seed(seed)
    face = render_face(Card.parse("7H"), style, height=H)
    h, w = face.shape[:2]
    assert (h, face.shape[2]) == (H, 4) and abs(w / h - ASPECT) < 0.01
    assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0 and face[h // 2, w // 2, 3] == 255


@pytest.mark.parametrize("card", STANDARD_52, ids=str)
def test_both_corner_indices_are_drawn(card: Card) -> None:
    style = FaceStyle.from_seed(1)
    face = render_face(card, style, height=H)
    h, w = face.shape[:2]
    x, y, bw, bh = index_box(w, h, style)
    top = ink(face, style)[y : y + bh, x : x + bw]
    bottom = ink(face, style)[h - y - bh : h - y, w - x - bw : w - x]
    assert top.mean() > 0.08, "top-left index is missing"
    # The bottom-right index is the top-left one turned half a turn.
    assert (top == bottom[::-1, ::-1]).mean() > 0.97


@pytest.mark.parametrize("rank", range(1, 11))
def test_pip_layouts_count(rank: int) -> None:
    style = FaceStyle.from_seed(2)
    face = render_face(Card(rank, Card.parse("AS").suit), style, height=440)
    h, w = face.shape[:2]
    x, y, bw, bh = index_box(w, h, style)
    body = ink(face, style).astype(np.uint8)
    body[: y + bh + 2, : x + bw + 2] = 0
    body[h - y - bh - 2 :, w - x - bw - 2 :] = 0
    if style.border:
        body[:, : round(0.05 * w)] = body[:, round(0.95 * w) :] = 0
        body[: round(0.03 * h)] = body[round(0.97 * h) :] = 0
    _, _, stats, _ = cv2.connectedComponentsWithStats(body)
    pips = sum(1 for s in stats[1:] if s[cv2.CC_STAT_AREA] > 30)
    assert pips == rank


def faces_shape(height: int) -> tuple[int, int, int]:
    return (height, round(height * ASPECT), 4)


def test_faces_differ_and_are_deterministic() -> None:
    style = FaceStyle.from_seed(3)
    faces = {str(c): render_face(c, style, height=132).tobytes() for c in STANDARD_52}
    assert len(set(faces.values())) == 52
    assert render_face(Card.parse("QS"), style, height=132).tobytes() == faces["QS"]
    assert render_face(Card.parse("JK"), style, height=132).shape == faces_shape(132)


def test_backs_in_every_colour_and_pattern() -> None:
    means = {}
    for colour in BACK_COLOURS:
        for pattern in BACK_PATTERNS:
            back = render_back(colour, pattern, height=176, seed=1)
            assert back.shape == (176, 126, 4) and back[0, 0, 3] == 0
        means[colour] = render_back(colour, "lattice", height=176)[40:-40, 30:-30, :3].reshape(-1, 3).mean(axis=0)
    # Distinct colours stay apart (a back identifies its player).
    names = list(means)
    closest = min(np.linalg.norm(means[a] - means[b]) for i, a in enumerate(names) for b in names[i + 1 :])
    assert closest > 15
    with pytest.raises(ValueError, match="unknown back colour 'mauve'"):
        render_back("mauve", "lattice")


def test_registry_holds_out_designs() -> None:
    designs = load_designs()
    held = [d for d in designs if d.heldout]
    assert sum(d.kind == "gnome" for d in held) >= 4 and sum(d.kind == "kde" for d in held) >= 2
    train, test = split_designs(designs, available_only=False)
    assert not {d.key for d in train} & {d.key for d in test}
    assert all(not d.heldout for d in train) and all(d.status != "skip" for d in train + test)
    # The procedural designs need no package: both splits exist on any machine.
    train, test = split_designs(designs)
    assert any(d.kind == "procedural" for d in train) and any(d.kind == "procedural" for d in test)


@pytest.mark.skipif(not artwork.installed("gnome", "anglo"), reason="packaged decks not installed (make data)")
def test_packaged_decks_render() -> None:
    pytest.importorskip("PyQt5")
    for kind, name in (("gnome", "anglo"), ("kde", "svg-standard")):
        face = artwork.render_packaged(kind, name, Card.parse("QH"), height=176)
        back = artwork.render_packaged(kind, name, None, height=176)
        assert face.shape == back.shape == (176, 126, 4)
        assert face[88, 63, 3] == 255 and face[0, 0, 3] == 0
        assert np.abs(face.astype(int) - back.astype(int)).mean() > 10


def test_missing_artwork_says_how_to_install() -> None:
    with pytest.raises(artwork.ArtworkError, match="make data"):
        artwork.deck_file("kde", "no-such-deck")


@pytest.mark.skipif(not artwork.svg_cards_backs(), reason="svg-cards not installed (make data)")
def test_svg_cards_faces_and_coloured_backs() -> None:
    face = artwork.render_packaged("svg-cards", "svg-cards", Card.parse("10D"), height=176)
    assert face.shape == (176, 126, 4) and face[0, 0, 3] == 0 and face[88, 63, 3] == 255
    colours = artwork.svg_cards_backs()
    assert len(colours) >= 10 and "red" in colours
    red = artwork.render_packaged("svg-cards", "svg-cards", None, height=176, back="red")
    blue = artwork.render_packaged("svg-cards", "svg-cards", None, height=176, back="blue")
    assert np.abs(red.astype(int) - blue.astype(int)).mean() > 10


@pytest.mark.parametrize("colour", ["red", "green", "purple", "orange"])
def test_recoloured_backs_take_the_players_colour(colour: str) -> None:
    from vision.synth.faces import recolour

    blue = render_back("blue", "lattice", height=176)
    out = recolour(blue, colour)
    hsv = cv2.cvtColor(out[..., :3], cv2.COLOR_BGR2HSV)
    coloured = cv2.cvtColor(blue[..., :3], cv2.COLOR_BGR2HSV)[..., 1] > 40
    target = cv2.cvtColor(np.array([[BACK_COLOURS[colour]]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0]
    hue_error = np.abs(hsv[..., 0][coloured].astype(int) - int(target))
    assert np.median(np.minimum(hue_error, 180 - hue_error)) <= 3
    assert (out[..., 3] == blue[..., 3]).all()


@pytest.mark.skipif(not artwork.installed("kde", "svg-tigullio-international"), reason="packaged decks not installed")
def test_a_player_never_gets_a_back_that_does_not_look_their_colour() -> None:
    """A recoloured back that keeps its look (tigullio-international: black with a white emblem) is refused for
    every colour but its own; every back a table is dealt measures nearest its player's colour as the chain
    measures it, or is a pattern drawn in that colour."""
    pytest.importorskip("PyQt5")
    from vision.synth.decks import design_named
    from vision.synth.render import choose_decks, recolours_to

    emblem = design_named("kde:svg-tigullio-international")
    assert recolours_to(emblem, "black") and not recolours_to(emblem, "blue") and not recolours_to(emblem, "red")
    assert recolours_to(design_named("kde:svg-oxygen"), "blue")  # a blue back turned red looks red
    colours = ["red", "blue", "green", "black"]
    recoloured = 0
    for s in range(40):
        decks = choose_decks(["a", "b", "c", "d"], colours, np.random.default_rng(s), heldout=s % 2 == 1)
        again = choose_decks(["a", "b", "c", "d"], colours, np.random.default_rng(s), heldout=s % 2 == 1)
        assert decks.backs == again.backs
        for colour, pattern in decks.backs.values():
            if pattern.startswith("recolour:"):
                recoloured += 1
                assert recolours_to(design_named(pattern.removeprefix("recolour:")), colour), pattern
            else:
                assert pattern in BACK_PATTERNS or pattern == "svg-cards"
    assert recoloured >= 20


def test_the_renderer_draws_exactly_the_named_back_colours() -> None:
    from referee.cards import BACK_COLOUR_NAMES
    from vision.synth.faces import BACK_COLOURS

    assert tuple(BACK_COLOUR_NAMES) == tuple(BACK_COLOURS)


@pytest.mark.skipif(not artwork.installed("gnome", "anglo"), reason="packaged decks not installed (make data)")
def test_every_face_design_draws_its_index() -> None:
    """A design whose SVG the renderer cannot draw gave blank cards labelled with identities (simplistic and
    anglo_poker in Qt): every design in a split must tell 7H from 8H and from 7S by a top corner (svg-oxygen's
    rank stands in the right one)."""
    train, test = split_designs(load_designs())
    assert len(train) >= 30 and len(test) >= 8

    def corner(design, card: str) -> np.ndarray:  # type: ignore[no-untyped-def]
        face = design.face(Card.parse(card), height=128).astype(float)
        h, w = face.shape[:2]
        a = face[..., 3:4] / 255
        grey = (face[..., :3] * a + 255 * (1 - a)).mean(axis=2)
        top = grey[: int(h * 0.3)]
        return np.stack([top[:, : int(w * 0.25)], top[:, ::-1][:, : int(w * 0.25)]])

    for design in train + test:
        seven, eight, spade = corner(design, "7H"), corner(design, "8H"), corner(design, "7S")
        assert (seven < 160).mean() > 0.02, f"{design.key}: no ink in the 7H's top corners"
        rank, suit = np.abs(seven - eight).mean(axis=(1, 2)), np.abs(seven - spade).mean(axis=(1, 2))
        assert max(rank) > 2 and max(suit) > 2, f"{design.key}: 7H, 8H and 7S alike in both top corners"


def test_varied_decks_use_the_machines_fonts_and_every_one_draws_its_indices() -> None:
    """``FaceStyle.varied`` gives each seed a deck of its own (fonts, index places and sizes), the same deck for
    the same seed; each draws its rank and suit in the top-left index box, telling 7H from 8H and 7S there."""
    from vision.synth.faces import index_fonts

    fonts = index_fonts()
    assert len(fonts) >= 10  # matplotlib's own fonts at least: ultralytics brings matplotlib
    styles = [FaceStyle.varied(seed) for seed in range(40)]
    assert FaceStyle.varied(3) == styles[3]
    assert len({s.ttf for s in styles}) >= 10 and any(s.ttf is None for s in styles)
    assert len({round(s.index_height, 4) for s in styles}) >= 35
    for seed, style in enumerate(styles):
        faces = {c: render_face(Card.parse(c), style, height=H) for c in ("7H", "8H", "7S")}
        x, y, w, h = index_box(*faces["7H"].shape[1::-1], style)
        box = {c: f[y : y + h, x : x + w, :3].astype(float) for c, f in faces.items()}
        assert ink(faces["7H"], style)[y : y + h, x : x + w].mean() > 0.05, f"seed {seed}: an empty index"
        assert np.abs(box["7H"] - box["8H"]).mean() > 3, f"seed {seed}: 7H and 8H alike in the index"
        assert np.abs(box["7H"] - box["7S"]).mean() > 3, f"seed {seed}: 7H and 7S alike in the index"


def test_the_seeded_procedural_decks_keep_their_look() -> None:
    """The wider style space is ``varied``'s alone: ``from_seed`` decks (proc-6 and proc-7 are held out, and
    figures across sessions compare on them) keep the Hershey fonts and the index where it always was."""
    for seed in range(8):
        style = FaceStyle.from_seed(seed)
        assert style.ttf is None and (style.index_x, style.index_y, style.index_w) == (0.035, 0.03, 0.16)
        assert (style.condense, style.suit_scale, style.pip_scale) == (0.62, 1.0, 1.0)


def test_a_varied_design_is_a_new_deck_at_every_table_and_held_out_tables_never_get_one() -> None:
    from vision.synth.render import choose_decks

    designs = load_designs()
    varied = [d for d in designs if d.varied]
    assert varied and not any(d.heldout for d in varied)
    seeds = set()
    for s in range(60):
        decks = choose_decks(["a", "b", "c", "d"], ["red", "blue", "green", "black"], np.random.default_rng(s),
                             heldout=False, designs=designs)  # fmt: skip
        seeds |= {d.seed for d in decks.faces.values() if d.varied}
        held = choose_decks(["a", "b"], ["red", "blue"], np.random.default_rng(s), heldout=True, designs=designs)
        assert not any(d.varied for d in held.faces.values())
    assert len(seeds) > 20  # about a third of 240 decks, each its own


def test_varied_suit_symbols_bend_but_stay_their_suit() -> None:
    """Varied decks bend the suit symbols (a held-out deck's clubs were read as spades); every bend of a suit
    still looks more like that suit's plain symbol than like any other suit's, and the plain one is unbent."""
    from referee.cards import Suit
    from vision.synth.faces import FORMS, suit_mask

    plain = {suit: suit_mask(suit, 64) for suit in Suit}
    assert all(np.array_equal(suit_mask(suit, 64, (0.0, 0.0)), plain[suit]) for suit in Suit)
    for suit in Suit:
        bends = {suit_mask(suit, 64, (a, b)).tobytes() for a in FORMS for b in FORMS}
        assert len(bends) >= len(FORMS), suit  # (diamonds only widen or narrow)
        for a in FORMS:
            for b in FORMS:
                shape = suit_mask(suit, 64, (a, b)) > 0.5
                overlap = {s: (shape & (plain[s] > 0.5)).sum() / (shape | (plain[s] > 0.5)).sum() for s in Suit}
                nearest = max(overlap, key=lambda s: float(overlap[s]))
                assert nearest is suit, (suit, a, b, nearest)  # (slim clubs' lobes were once a spade's)
    assert len({FaceStyle.varied(seed).suit_form for seed in range(40)}) > 10


def test_some_lattice_and_stripe_backs_are_fine() -> None:
    """A share of lattice and stripe backs is drawn as fine as a casino back's (a step of 2-3.5 % of the card's
    width): counted as light-dark changes along a row across the middle."""

    def changes(pattern: str, seed: int) -> int:
        back = render_back("red", pattern, height=352, seed=seed)
        row = cv2.cvtColor(back[..., :3], cv2.COLOR_BGR2GRAY)[back.shape[0] // 2, 30:-30].astype(int)
        light = row > (row.min() + row.max()) / 2
        return int(np.count_nonzero(light[1:] != light[:-1]))

    for pattern in ("lattice", "stripes"):
        counts = [changes(pattern, seed) for seed in range(12)]
        assert max(counts) >= 3 * min(counts), (pattern, counts)  # some fine, some coarse
        assert sum(c >= 30 for c in counts) >= 2, (pattern, counts)
