"""The chain's bookkeeping between the referee's verdicts and the reconstruction."""

from __future__ import annotations

from referee.cards import Card
from referee.events import Correction, Play, PlayerSpec, RoundStart
from vision.pipeline import Chain


def test_a_play_the_rules_accept_after_a_correction_leaves_its_pile_trusted_again() -> None:
    """The rules refuse a deck's second AS; the first is then fixed to the AC it was, misread. The second is lawful
    now, and the reconstruction judges what lands on its pile against it again, not against no pile."""
    chain = Chain("racing-demon", {}, [("a", "red"), ("b", "blue")], arms=None)
    players = (PlayerSpec("a", 13, back="red"), PlayerSpec("b", 13, back="blue"))
    chain._emit(RoundStart(seq=0, t=0.0, rules="racing-demon", players=players), 0)
    chain._emit(Play(seq=1, t=1.0, player="a", card=Card.parse("AS"), pile="f1", source="waste"), 30)
    chain._emit(Play(seq=2, t=2.0, player="a", card=Card.parse("AS"), pile="f2", source="waste"), 60)
    assert "f2" in chain.recon.suspect  # a duplicate: the rules' f2 is no pile
    chain._emit(Correction(seq=3, t=3.0, action="fix-card", by="camera", target=1, card=Card.parse("AC")), 90)
    assert "f2" not in chain.recon.suspect and "f2" not in chain.recon.suspect_play
    assert chain.recon.tops["f2"] == Card.parse("AS")


def test_a_correction_leaves_a_play_the_rules_still_refuse_suspect() -> None:
    chain = Chain("racing-demon", {}, [("a", "red"), ("b", "blue")], arms=None)
    players = (PlayerSpec("a", 13, back="red"), PlayerSpec("b", 13, back="blue"))
    chain._emit(RoundStart(seq=0, t=0.0, rules="racing-demon", players=players), 0)
    chain._emit(Play(seq=1, t=1.0, player="a", card=Card.parse("AS"), pile="f1", source="waste"), 30)
    chain._emit(Play(seq=2, t=2.0, player="a", card=Card.parse("AS"), pile="f2", source="waste"), 60)
    chain._emit(Play(seq=3, t=2.5, player="b", card=Card.parse("AH"), pile="f3", source="waste"), 75)
    chain._emit(Correction(seq=4, t=3.0, action="fix-card", by="camera", target=3, card=Card.parse("AD")), 90)
    assert chain.recon.suspect_play.get("f2") == 2  # still a's second AS
