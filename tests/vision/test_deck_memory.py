"""The deck memory: it learns each card's look from the deal's recorded plays (not from what the
classifier read), from plays that nobody doubts (or any play of a deal that ended settled), and
then reads a misread card right."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.crops import LABELS, NONE
from vision.deck_memory import SAMPLE_GAP, DeckMemory

F = 16
BOX = {"N": (100.0, 50.0, 140.0, 110.0), "S": (100.0, 250.0, 140.0, 310.0)}


def look(card: str, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """A card's features: its own direction in feature space (plus some noise)."""
    base = np.random.default_rng(LABELS.index(card)).normal(size=F)
    return base + noise * np.random.default_rng(seed).normal(size=F)


def reading(**cards: float) -> np.ndarray:
    """A classifier's row of 33: the named cards' probabilities, the rest to "none"."""
    row = np.zeros(len(LABELS), np.float32)
    for card, p in cards.items():
        row[LABELS.index(card.upper())] = p
    row[NONE] = 1 - row.sum()
    return row


def played(card: str | None, seat: str, seen: float, uncertain: bool = False) -> dict:
    return {"type": "card_played", "box": list(BOX[seat]),
            "data": {"card": card, "seat": seat, "seen": seen, "t": seen + 0.2,
                     "uncertain": uncertain}}


def deal(memory: DeckMemory, plays: list[tuple[str, str, str]], events: list[dict] = ()) -> int:
    """Film a two-card trick: each (seat, card, features_of) lies in its seat's box from t=1 on
    (the crop's look is `features_of`'s card), recorded at 1.0; then gathered, deal over."""
    memory.witness({"type": "deal_started", "data": {}})
    for k in range(20):
        t = k * SAMPLE_GAP
        crops = [(BOX[seat], look(shown, 0.3, k)) for seat, _card, shown in plays if t >= 1.0]
        memory.saw(t, crops)
        if k == 4:
            for seat, card, _ in plays:
                memory.witness(played(card, seat, 1.0))
            for event in events:
                memory.witness(event)
    memory.witness({"type": "trick_gathered", "data": {}})
    memory.saw(6.5, [(BOX["N"], look("AS"))])  # after the trick went: no play's crop
    return memory.witness({"type": "deal_over", "data": {}})


def test_it_learns_each_card_from_its_play_not_from_what_was_read() -> None:
    memory = DeckMemory()
    assert deal(memory, [("N", "KH", "KH"), ("S", "JH", "JH")]) > 0
    assert memory.deals == 1 and set(np.flatnonzero(memory.counts)) == {
        LABELS.index("KH"), LABELS.index("JH")}
    # The classifier reads the king a jack (0.6 / 0.3): the memory knows this deck's king.
    probs = np.stack([reading(jh=0.6, kh=0.3)])
    mixed = memory.reread(probs, np.stack([look("KH", 0.3, 99)]))
    assert LABELS[int(mixed[0, :NONE].argmax())] == "KH" and mixed[0, NONE] == probs[0, NONE]
    assert mixed[0, :NONE].sum() == pytest.approx(1 - probs[0, NONE], abs=1e-5)
    # A crop unlike any card it knows (another deck, a phone) is left to the classifier.
    basis, _ = np.linalg.qr(np.stack([look("KH"), look("JH")]).T)
    stranger = np.random.default_rng(7).normal(size=F)
    stranger -= basis @ (basis.T @ stranger)  # at right angles to both cards' looks
    np.testing.assert_array_equal(memory.reread(probs, stranger[None]), probs)


def test_it_learns_the_record_as_corrected_and_nothing_in_doubt_or_undone() -> None:
    cases = (([{"type": "correction", "data": {"play": 0, "card": "KH", "before": "JC"}}],
              {"KH", "JH"}),  # N's king first recorded JC: the record, corrected, teaches KH
             ([{"type": "correction", "data": {"play": 0, "card": "KH", "before": "JC",
                                                "uncertain": True}}], {"JH"}),
             ([{"type": "undo", "data": {"seq": 1}}], set()))
    for events, taught in cases:
        memory = DeckMemory()
        deal(memory, [("N", "JC", "KH"), ("S", "JH", "JH")], events)
        assert {LABELS[i] for i in np.flatnonzero(memory.counts)} == taught
    memory = DeckMemory()
    memory.witness({"type": "deal_started", "data": {}})
    memory.saw(1.0, [(BOX["N"], look("KH"))])
    memory.witness(played("KH", "N", 1.0, uncertain=True))
    memory.saw(1.5, [(BOX["N"], look("KH"))])
    # A play seen but never read, named at the deal's end (no box, no time seen): nothing.
    memory.witness({"type": "card_played", "box": None,
                    "data": {"card": None, "seat": "S", "seen": None, "t": None}})
    memory.witness({"type": "card_played", "box": None,
                    "data": {"card": "AS", "seat": "S", "seen": None, "t": 2.0}})
    assert memory.witness({"type": "deal_over", "data": {}}) == 0 and not memory.counts.any()


DEAL_CARDS = ["KH"] + [c for c in LABELS[:NONE] if c != "KH"]


def whole_deal(memory: DeckMemory, doubted: str, event: dict | None, unread: int = -1) -> int:
    """A deal of all 32 cards, each recorded once in a box of its own; the first play (KH, its
    crops looking like a king) is recorded in doubt, play `unread` recorded unread (named by
    `event`), then `event` (if any) is witnessed."""
    cards = DEAL_CARDS
    boxes = [(20.0 * i, 0.0, 20.0 * i + 15, 30.0) for i in range(NONE)]
    memory.witness({"type": "deal_started", "data": {}})
    memory.saw(1.0, [(boxes[0], look("KH", 0.3, 1))])
    for i, (card, box) in enumerate(zip(cards, boxes, strict=True)):
        memory.witness({"type": "card_played", "box": list(box),
                        "data": {"card": None if i == unread else card,
                                 "seat": "NESW"[i % 4], "seen": 1.0, "t": 1.2,
                                 "uncertain": card == doubted}})
    memory.saw(1.5, [(boxes[0], look("KH", 0.3, 2))])
    if event is not None:
        memory.witness(event)
    return memory.witness({"type": "deal_over", "data": {}})


def test_plays_in_doubt_teach_when_the_deal_ended_settled() -> None:
    """Every play read, each card once: the king recorded in doubt teaches. A play recorded
    unread or deduced (where a misread in doubt leaves its trace), or an undo: it does not."""
    cases = ((None, 2), ({"type": "undo", "data": {"seq": 3}}, 0),
             ({"type": "correction", "data": {"play": 5, "card": DEAL_CARDS[5], "before": None,
                                               "deduced": True}}, 0),
             ({"type": "correction", "data": {"play": 5, "card": DEAL_CARDS[5],
                                               "before": None}}, 0),
             ({"type": "correction", "data": {"play": 5, "card": DEAL_CARDS[6]}}, 0))
    for (event, learnt), unread in zip(cases, (-1, -1, 5, 5, -1), strict=True):
        memory = DeckMemory()  # (the last: one card twice, one never)
        assert whole_deal(memory, "KH", event, unread) == learnt, event
        assert memory.counts[LABELS.index("KH")] == learnt
    memory = DeckMemory()  # a sure king teaches in a deal not settled (not after an undo)
    assert whole_deal(memory, "", {"type": "undo", "data": {"seq": 3}}) == 0
    memory = DeckMemory()
    assert whole_deal(memory, "", cases[2][0]) == 2


def test_a_misread_crop_of_a_sure_play_teaches_the_play_s_card() -> None:
    """The crops of N's king look like a king whatever the classifier made of them; a crop
    seen before the card was (a hand passing over its place) belongs to no play."""
    memory = DeckMemory()
    memory.witness({"type": "deal_started", "data": {}})
    memory.saw(0.2, [(BOX["N"], look("AS"))])  # before N's card was seen there
    memory.saw(1.0, [(BOX["N"], look("KH"))])
    memory.witness(played("KH", "N", 1.0))
    memory.saw(1.5, [(BOX["N"], look("KH", 0.1, 1))])
    assert memory.witness({"type": "deal_over", "data": {}}) == 2
    assert memory.counts[LABELS.index("KH")] == 2 and memory.counts.sum() == 2


def test_it_learns_a_card_from_its_whole_boxes_not_from_boxes_on_a_part_of_it() -> None:
    """N's king was first boxed by its lower part (a hand on the rest), and the box model also
    boxes that part alone now and then: the play's card is learnt from the whole card's boxes
    (which hold the play's box), never from the part's (another look)."""
    part = (105.0, 85.0, 135.0, 110.0)
    memory = DeckMemory()
    memory.witness({"type": "deal_started", "data": {}})
    memory.witness({"type": "card_played", "box": list(part),
                    "data": {"card": "KH", "seat": "N", "seen": 1.0, "t": 1.2}})
    memory.witness(played("JH", "S", 1.0))
    for k in range(4):
        t = 1.0 + k * 2 * SAMPLE_GAP
        memory.saw(t, [(BOX["N"], look("KH", 0.3, k)), (part, look("AS", 0.3, k)),
                       (BOX["S"], look("JH", 0.3, k))])
    assert memory.witness({"type": "deal_over", "data": {}}) == 8
    assert memory.counts[LABELS.index("KH")] == memory.counts[LABELS.index("JH")] == 4
    proto = memory.sums[LABELS.index("KH")]
    like = [float(proto @ look(c) / np.linalg.norm(proto) / np.linalg.norm(look(c)))
            for c in ("KH", "AS")]
    assert like[0] > 0.9 > 0.5 > like[1]


def test_it_is_kept_across_restarts_forgotten_at_a_new_game_refuses_a_foreign_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deck" / "memory.npz"
    memory = DeckMemory(path)
    deal(memory, [("N", "KH", "KH"), ("S", "JH", "JH")])
    assert path.is_file()  # written at the deal's end
    again = DeckMemory(path)
    assert again.deals == 1 and (again.counts == memory.counts).all()
    features = np.stack([look("KH", 0.3, 5)])
    probs = np.stack([reading(jh=0.6, kh=0.3)])
    np.testing.assert_allclose(again.reread(probs, features), memory.reread(probs, features))
    np.savez(tmp_path / "other.npz", sums=np.zeros((5, F)), counts=np.zeros(5), deals=1)
    with pytest.raises(ValueError, match="not a deck memory"):
        DeckMemory(tmp_path / "other.npz")
    (tmp_path / "torn.npz").write_bytes(b"PK\x03\x04 cut short")
    with pytest.raises(ValueError, match="unreadable deck memory"):
        DeckMemory(tmp_path / "torn.npz")
    assert DeckMemory(tmp_path / "none.npz").deals == 0  # nothing there yet: an empty memory
    again.witness({"type": "game_started", "data": {}})  # a new game, perhaps another deck
    assert again.deals == 0 and not again.counts.any() and not path.exists()
    np.testing.assert_array_equal(again.reread(probs, features), probs)


def test_an_empty_memory_changes_nothing() -> None:
    probs = np.stack([reading(jh=0.6, kh=0.3)])
    np.testing.assert_array_equal(DeckMemory().reread(probs, np.ones((1, F))), probs)
    assert DeckMemory().witness({"type": "deal_over", "data": {}}) == 0


def test_the_two_stages_read_with_the_memory_and_hand_its_crops_to_the_loop() -> None:
    """A king the classifier reads a jack (0.55 / 0.35) is named a king once the memory knows
    this deck's king; the crops read as cards come back in the small picture's pixels (names are
    read on the main picture, twice as large), and "none" still vetoes a back."""
    from vision.detections import Detection
    from vision.two_stage import TwoStage

    king, back = (10.0, 10.0, 40.0, 50.0), (100.0, 10.0, 130.0, 50.0)

    class Boxes:
        def detect(self, bgr: np.ndarray, conf: float | None = None) -> list[Detection]:
            return [Detection("?", 0.5, king), Detection("?", 0.5, back)]

    class Classifier:
        path, turns = Path("stub.onnx"), 1

        def read(self, bgr: np.ndarray, boxes) -> tuple[np.ndarray, np.ndarray]:
            assert bgr.shape[0] == 200  # the main picture
            rows = [reading(jh=0.55, kh=0.35) if box[0] < 50 else reading(kh=0.1)
                    for box in boxes]
            feats = [look("KH", 0.3, 3) if box[0] < 50 else look("AS") for box in boxes]
            return np.stack(rows), np.stack(feats)

    memory = DeckMemory()
    reader = TwoStage(Boxes(), Classifier(), box_conf=0.1, memory=memory)  # type: ignore[arg-type]
    small, main = np.zeros((100, 200, 3), np.uint8), np.zeros((200, 400, 3), np.uint8)
    assert [d.card for d in reader.detect(small, main=main)] == ["JH"]  # nothing learnt yet
    assert [box for box, _ in reader.last_crops] == [king]
    deal(memory, [("N", "KH", "KH"), ("S", "JH", "JH")])
    (found,) = reader.detect(small, main=main)
    assert found.card == "KH" and found.box == king and "deck memory" in repr(reader)


def test_a_card_it_has_not_learnt_is_not_pulled_to_the_likest_card_it_knows() -> None:
    """The queen was in doubt in the deal learnt, so the memory knows only the king and the jack;
    a crop the classifier reads QH 0.5 / KH 0.3 might be the queen: the memory keeps out of it,
    however like the king it looks. A card it does not know, read under 0.05, is not raised."""
    memory = DeckMemory()
    deal(memory, [("N", "KH", "KH"), ("S", "JH", "JH")])
    probs = np.stack([reading(qh=0.5, kh=0.3), reading(jh=0.6, kh=0.3, qh=0.01)])
    mixed = memory.reread(probs, np.stack([look("KH", 0.3, 11), look("KH", 0.3, 12)]))
    np.testing.assert_array_equal(mixed[0], probs[0])
    assert LABELS[int(mixed[1, :NONE].argmax())] == "KH"
    assert mixed[1, LABELS.index("QH")] == pytest.approx(0.01, abs=1e-6)


def test_a_crop_read_none_but_plainly_like_the_classifier_s_best_card_is_that_card() -> None:
    """Cards of an unseen design read "none" for seconds (bellot's 8S, svgcards' 8C). A crop read
    none 0.6 / KH 0.3 / JH 0.1 that looks plainly like the learnt king is the king; not when it
    looks like the jack (the classifier's best is the king), nor when it is only somewhat like
    the king (0.78: a box on a hand, the felt)."""
    memory = DeckMemory()
    deal(memory, [("N", "KH", "KH"), ("S", "JH", "JH")])
    king = memory.sums[LABELS.index("KH")] / np.linalg.norm(memory.sums[LABELS.index("KH")])
    basis, _ = np.linalg.qr(np.stack([look("KH"), look("JH"), king]).T)
    aside = np.random.default_rng(3).normal(size=F)
    aside -= basis @ (basis.T @ aside)  # at right angles to both cards' looks
    somewhat = 0.78 * king + np.sqrt(1 - 0.78**2) * aside / np.linalg.norm(aside)
    probs = np.stack([reading(kh=0.3, jh=0.1)] * 3)
    mixed = memory.reread(probs, np.stack([look("KH", 0.3, 21), look("JH", 0.3, 22), somewhat]))
    assert mixed[0, NONE] == 0 and LABELS[int(mixed[0, :NONE].argmax())] == "KH"
    assert mixed[0, :NONE].sum() == pytest.approx(1, abs=1e-5)
    assert mixed[1, NONE] == probs[1, NONE] and mixed[2, NONE] == probs[2, NONE]
    kh = LABELS.index("KH")
    assert mixed[2, kh] > probs[2, kh]  # (the memory still reads it: toward the king)
