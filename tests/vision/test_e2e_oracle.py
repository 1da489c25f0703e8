"""The chain on the committed rendered game, with the oracle detector: every filmed play recovered."""

from __future__ import annotations

from pathlib import Path

from vision.e2e import evaluate_game

SAMPLE = Path(__file__).parents[2] / "datasets" / "sample" / "game"


def test_oracle_chain_recovers_the_sample_game() -> None:
    r = evaluate_game(SAMPLE)
    assert r["plays"] >= 3
    assert r["recall"] == 1.0 and r["precision"] == 1.0 and r["attribution"] == 1.0
    assert r["scores_exact"] == r["player_rounds"]
