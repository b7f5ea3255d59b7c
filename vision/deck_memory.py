"""A memory of this table's own deck: how each of its cards looks to the classifier.

A table plays one deck all evening, and each finished deal shows all 32 of its cards, each
recorded where and when it was played. The classifier reads decks it was never trained on less
well (a king of an unseen pattern read as a jack); the memory keeps, for each card, the mean of
the classifier's pooled features (`vision.classifier_ensemble.FEATURES`) over the crops of that
card's own plays, and a later crop is read by its likeness to those prototypes as well.
Measured on simulated deals before it was built (`benchmarks/deck_memory.py`): crops of the
four held-out designs read 0.9874 -> 0.9970 top-1 (203 -> 48 errors of 16,163); on four sets of
20 deals (`simulated_deals.py --deck-memory`): plays named over 0.5 s after settling 42 -> 27 of
2,560, first recorded with a wrong card 10 -> 3, every play right with it or without (session
52); learning from plays in doubt when the deal settles, 47 -> 31 of 3,840 on six sets (53).

    memory = DeckMemory()
    probs = memory.reread(probs, features)        # the two stages, each frame
    memory.saw(t, reader.last_crops)              # the loop: what was read, and when
    memory.witness(event)                         # the loop: plays, corrections, deal's end
    memory.teach(cards, features)                 # `belote teach`: a deck shown card by card

Before the first deal it knows nothing, unless the referee showed it the deck (`teach`,
`vision.deck_teaching`): those prototypes start it, and a new game keeps them.

It learns only at a deal's end, from the record as it then stands (corrections included: the
cards most often misread are the ones most often corrected, and a memory without them was
no help there), from plays not in doubt -- or from all of them when the deal ended settled:
every play read (none recorded unread, none deduced), 32 different cards, no undo. The hardest
cards are the ones most often recorded in doubt, and a misread in doubt leaves a trace: the card
it took is missing where it was really played, which is then recorded unread or deduced (seed
2165 deal 17: a TC read 9S in doubt, the true 9S recorded unread, the TC deduced there). Each
crop is labelled by the play whose box it covers (or, card-sized, holds) while that card lay on
the felt, not by what the classifier read, so the very crops it misread teach it. A wrong name
in the record would teach it wrongly, hence the care; an undo makes the whole deal doubtful.
Pure numpy; no I/O but `save` and `load`.
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.cards import DECK
from vision.crops import LABELS, NONE
from vision.detections import inside, iou

# Readings are mixed as p_classifier^(1-WEIGHT) * p_memory^WEIGHT, p_memory a softmax of the
# cosine likeness to each prototype at TEMPERATURE. On 10,748 crops of two sets of held-out
# designs, each read by the memory of the same design's earlier deals (session 52), crops named
# (>= 0.5) right / wrong: the classifier 0.9516 / 41; at 0.5 and 0.1 0.9826 / 17; at 0.5 and
# 0.03 0.9926 / 27, but that sharper memory, tried on whole deals, named cards it had wrong with
# a confidence the tracker trusts (a 9C 0.45 / 8C 0.31 made 9C 0.77).
WEIGHT = 0.5
TEMPERATURE = 0.1
# A crop unlike every prototype (another deck, a hand, a phone) is left to the classifier alone.
# (99.9% of those card crops were at least 0.716 like their nearest prototype.)
MIN_LIKENESS = 0.7
CANDIDATE = 0.05  # a card the classifier reads this much is one the crop might be
# A crop the classifier reads "none" is that card when it is LIFT_LIKENESS like a learnt card,
# LIFT_MARGIN likelier than any other, and that card is the classifier's own best (cards of
# unseen designs read "none" for seconds, bellot's 8S and svgcards' 8C, made three of nine late
# plays traced in session 53). Measured offline on 3,520 boxes read "none" (seeds 2164/2165,
# prototypes from the true labels): the 102 at 0.85 or more were true cards, each nearest its
# own; no box that was not a card reached 0.81.
LIFT_LIKENESS = 0.85
LIFT_MARGIN = 0.05
SAMPLE_GAP = 0.3  # seconds between two frames whose crops are kept for learning
PER_PLAY = 12  # crops of one play learnt at most (spread over its time on the felt)
SAME_BOX = 0.5  # a crop belongs to a play when its box overlaps the play's this much (IoU)
# A crop teaches only when its box is card-sized: from CARD_SIZE[0] to CARD_SIZE[1] times the
# deal's median crop (a card turned 45 degrees boxes twice its area). A box on part of a card is
# another look: seed 2166 deal 2, W's 9D was first boxed half under a hand, learnt from a box on
# its lower half; its whole crops, read 8D by the memory, were recorded unread later.
CARD_SIZE = (0.7, 2.5)
HOLDS = 0.8  # ... and the play's box lies this much inside the crop's: the crop is that card


@dataclass
class _Play:
    card: str | None
    box: tuple[float, float, float, float] | None
    seen: float  # when its track was first seen
    sure: bool  # recorded (or last corrected) not in doubt
    gone: float | None = None  # when its trick was gathered


def _overlap(box: tuple[float, float, float, float], play: _Play, t: float, now: float) -> float:
    """How much a crop's box at time `t` overlaps `play`'s box while that card lay there; a
    (card-sized) crop holding the play's box counts as SAME_BOX: that box was the card's part
    first seen, a hand on the rest."""
    gone = play.gone if play.gone is not None else now
    if play.box is None or not play.seen <= t <= gone:
        return 0.0
    holds = inside(play.box, box) >= HOLDS
    return max(iou(box, play.box), SAME_BOX if holds else 0.0)


def _plainly(likeness: np.ndarray, cards: np.ndarray, card: int) -> bool:
    """Whether a crop's `likeness` to the prototypes of `cards` says `card`, plainly."""
    order = np.argsort(-likeness)
    first = float(likeness[order[0]])
    second = float(likeness[order[1]]) if len(order) > 1 else -1.0
    return int(cards[order[0]]) == card and first >= LIFT_LIKENESS \
        and first - second >= LIFT_MARGIN


def unit(x: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (cosine likeness is then a dot product)."""
    norm: np.ndarray = np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-9)
    out: np.ndarray = x / norm
    return out


class DeckMemory:
    """Prototypes of this deck's 32 cards, learnt from its finished deals."""

    def __init__(self, path: Path | str | None = None, weight: float = WEIGHT,
                 temperature: float = TEMPERATURE, min_likeness: float = MIN_LIKENESS) -> None:
        """`path`: where it is kept (read now if there, written after each deal learnt)."""
        self.weight, self.temperature, self.min_likeness = weight, temperature, min_likeness
        self.path = None if path is None else Path(path)
        self.sums: np.ndarray | None = None  # (32, F): sum of unit features per card
        self.counts = np.zeros(NONE, np.int64)
        self.deals = 0  # deals learnt from
        # (sums, counts) of a deck shown card by card (`teach`): kept when a new game forgets
        self.taught: tuple[np.ndarray, np.ndarray] | None = None
        # (cards learnt, their unit prototypes): made again only when it learns or forgets
        self._protos: tuple[np.ndarray, np.ndarray] | None = None
        self._crops: list[tuple[float, tuple[float, float, float, float], np.ndarray]] = []
        self._last_kept = -np.inf
        self._plays: list[_Play] = []
        self._undone = False
        self._unsettled = False  # a play recorded unread, or deduced: the doubts teach nothing
        self._now = 0.0
        if self.path is not None:
            self.load(self.path)

    # --- reading ---------------------------------------------------------------------------

    def reread(self, probs: np.ndarray, features: np.ndarray | None) -> np.ndarray:
        """(N, 33) readings mixed with the memory's, for the cards it knows; "none" unchanged
        unless it outweighs them on a crop plainly like the classifier's best card (`LIFT_`)."""
        if self._protos is None and self.sums is not None and self.counts.any():
            known = self.counts > 0
            self._protos = (known, unit(self.sums[known]))
        if self._protos is None or features is None or not len(probs):
            return probs
        known, protos = self._protos
        likeness = unit(features.astype(np.float32)) @ protos.T  # (N, K) cosines
        out = probs.astype(np.float32).copy()
        for i, row in enumerate(out):
            cards = np.maximum(row[:NONE], 1e-6)
            # It speaks only of the cards it knows: a crop that might be one it has not learnt
            # is left to the classifier (a deck's 8C, in doubt in the only deal learnt, was
            # pulled to its 9C, the likest it knew, and never named: seed 2162 deal 6).
            if likeness[i].max() < self.min_likeness or (cards[~known] >= CANDIDATE).any():
                continue
            best = int(np.argmax(cards))  # (the classifier's)
            z = np.exp((likeness[i] - likeness[i].max()) / self.temperature)
            mixed = cards[known] ** (1 - self.weight) * (z / z.sum()) ** self.weight
            cards[known] = mixed / mixed.sum() * cards[known].sum()
            none = float(row[NONE])
            row[:NONE] = cards / cards.sum() * max(0.0, 1.0 - none)
            if none > row[:NONE].max() and _plainly(likeness[i], np.flatnonzero(known), best):
                row[:NONE], row[NONE] = cards / cards.sum(), 0.0
        return out

    # --- learning, fed by the loop ---------------------------------------------------------

    def saw(self, t: float, crops: Sequence[tuple[Sequence[float], np.ndarray]]) -> None:
        """The crops read at time `t`: (box in the tracker's pixels, features). Kept every
        SAMPLE_GAP s until the deal's end tells which of them were which card."""
        self._now = t
        if not crops or t - self._last_kept < SAMPLE_GAP:
            return
        self._last_kept = t
        units = unit(np.stack([f for _, f in crops]).astype(np.float32)).astype(np.float16)
        for (box, _), feature in zip(crops, units, strict=True):
            x0, y0, x1, y1 = (float(v) for v in box)
            self._crops.append((t, (x0, y0, x1, y1), feature))

    def witness(self, event: Mapping[str, Any]) -> int:
        """An event of the deal (the tracker's or the referee's). At `deal_over` the memory
        learns; returns the number of crops learnt then (0 otherwise)."""
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "card_played":
            box, card = event.get("box"), data.get("card")
            seen = next((v for v in (data.get("seen"), data.get("t")) if v is not None), self._now)
            self._plays.append(_Play(None if card is None else str(card),
                                     None if box is None else tuple(box), float(seen),
                                     card is not None and not data.get("uncertain", False)))
            self._unsettled |= card is None
        elif kind == "correction":  # the deal's record is what teaches, corrections included
            i = int(data.get("play", -1))
            if 0 <= i < len(self._plays):
                card = data.get("card", self._plays[i].card)
                self._plays[i].card = None if card is None else str(card)
                self._plays[i].sure = card is not None and not data.get("uncertain", False)
            self._unsettled |= bool(data.get("deduced"))
        elif kind == "trick_gathered":
            for play in self._plays:
                play.gone = self._now if play.gone is None else play.gone
        elif kind == "undo":  # the record no longer lines up with the plays seen: none teaches
            self._undone = True
        elif kind == "deal_over":
            learnt = self._learn()
            self._forget_deal()
            if learnt and self.path is not None:
                self.save(self.path)
            return learnt
        elif kind == "deal_started":
            self._forget_deal()
        elif kind == "game_started":  # a new game, perhaps with another deck
            self.forget()
        return 0

    def forget(self) -> None:
        """Forget what the deals taught (and the file it was kept in), all but a deck `teach`
        gave: a new game may be played with another deck, but a deck taught is the referee's
        word until taught again."""
        self.deals, self._protos = 0, None
        if self.taught is None:
            self.sums, self.counts = None, np.zeros(NONE, np.int64)
        else:
            self.sums, self.counts = self.taught[0].copy(), self.taught[1].copy()
        self._forget_deal()
        if self.path is not None:
            if self.taught is None:
                self.path.unlink(missing_ok=True)
            else:
                self.save(self.path)

    def teach(self, cards: Sequence[str], features: np.ndarray) -> int:
        """Start afresh with a deck shown card by card (`vision.deck_teaching`): `features`
        (N, F), the classifier's pooled features of each of `cards`' crops, are those cards'
        first prototypes; what the deals taught before is forgotten (another deck, perhaps).
        Returns the number of cards taught."""
        units = unit(np.asarray(features, np.float32)).astype(np.float64)
        sums, counts = np.zeros((NONE, units.shape[1])), np.zeros(NONE, np.int64)
        for card, feature in zip(cards, units, strict=True):
            sums[LABELS.index(card)] += feature
            counts[LABELS.index(card)] += 1
        self.taught = (sums, counts)
        self.forget()
        return int((counts > 0).sum())

    def _settled(self) -> bool:
        """Whether the deal so far leaves no doubt to settle: every play read, each card once,
        all 32 of them, no undo (then its plays in doubt teach too)."""
        cards = {p.card for p in self._plays}
        return not (self._unsettled or self._undone) and len(self._plays) == len(cards) == len(DECK)

    def _learn(self) -> int:
        settled = self._settled()
        plays = [p for p in self._plays if (p.sure or settled) and p.box is not None
                 and p.card in LABELS]
        if not plays or not self._crops or self._undone:
            return 0
        mine: dict[int, list[np.ndarray]] = {}
        areas = np.array([(x1 - x0) * (y1 - y0) for _, (x0, y0, x1, y1), _ in self._crops])
        low, high = np.median(areas) * np.array(CARD_SIZE)
        for (t, box, feature), area in zip(self._crops, areas, strict=True):
            if not low <= area <= high:
                continue
            overlaps = np.array([_overlap(box, p, t, self._now) for p in plays] + [0.0])
            first, second = np.partition(overlaps, -2)[-1:-3:-1]
            if first >= SAME_BOX > second:  # one play's box, and no other's
                mine.setdefault(int(np.argmax(overlaps)), []).append(feature)
        if self.sums is None:
            self.sums = np.zeros((NONE, len(self._crops[0][2])), np.float64)
        learnt = 0
        for k, units in mine.items():
            pick = np.linspace(0, len(units) - 1, min(PER_PLAY, len(units))).round().astype(int)
            card = LABELS.index(str(plays[k].card))
            self.sums[card] += np.asarray([units[i] for i in pick], np.float64).sum(0)
            self.counts[card] += len(pick)
            learnt += len(pick)
        self.deals += 1
        self._protos = None
        return learnt

    def _forget_deal(self) -> None:
        self._crops, self._plays, self._last_kept = [], [], -np.inf
        self._undone = self._unsettled = False

    # --- keeping it across restarts --------------------------------------------------------

    def save(self, path: Path | str) -> None:
        """Write the prototypes' sums (npz); a crash loses at most the deal in progress."""
        if self.sums is None:
            return
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        arrays: dict[str, Any] = {"sums": self.sums, "counts": self.counts, "deals": self.deals}
        if self.taught is not None:
            arrays.update(taught_sums=self.taught[0], taught_counts=self.taught[1])
        np.savez(tmp, **arrays)
        tmp.replace(path)

    def load(self, path: Path | str) -> bool:
        """Read what `save` wrote; False (and nothing changed) when there is no such file."""
        path = Path(path)
        if not path.is_file():
            return False
        try:
            with np.load(path) as data:
                sums, counts, deals = data["sums"], data["counts"], int(data["deals"])
                taught = ((data["taught_sums"], data["taught_counts"])
                          if "taught_sums" in data.files else None)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: unreadable deck memory ({exc}); delete it to start "
                             "afresh") from None
        if sums.ndim != 2 or sums.shape[0] != NONE or counts.shape != (NONE,):
            raise ValueError(f"{path}: not a deck memory of {NONE} cards")
        if taught is not None and (taught[0].shape != sums.shape or taught[1].shape != (NONE,)):
            raise ValueError(f"{path}: its taught deck is not one of {NONE} cards")
        self.sums, self.counts, self.deals, self.taught = sums, counts, deals, taught
        self._protos = None
        return True
