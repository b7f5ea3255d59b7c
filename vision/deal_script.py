"""The script of a simulated deal: who plays what (with injected revokes), then where every card
and every hand is on the table at any moment, for the renderer to draw and the benchmark to check.

Table coordinates are centimetres on the felt, origin at its centre, x towards East (right of the
picture), y towards South (bottom of the picture): North sits at the top, West on the left, so the
default counterclockwise order N → W → S → E turns counterclockwise on screen too.

>>> import random
>>> deal = play_deal(random.Random(1), "ffb-coinche", n_illegal=1)
>>> len(deal.plays), len(deal.illegal)
(32, 1)
>>> script = build_timeline(deal, random.Random(1))
>>> len(script.t_settled)
32
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.cards import DECK, Card, Seat
from engine.contract import Contract
from engine.rules import RuleSet, find_rules
from vision.geometry import CARD_LENGTH_CM, TABLE_CM
from vision.table_clutter import TableClutter, TableObject, lay_clutter

if TYPE_CHECKING:
    from engine.observe import ObservedDeal

# --- The deal ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimDeal:
    """A complete deal as it really happened, hands included, with the indices of illegal plays."""

    rules: str
    dealer: Seat
    contract: Contract
    hands: dict[Seat, tuple[Card, ...]]
    plays: tuple[tuple[Seat, Card], ...]
    illegal: tuple[int, ...]

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The winner of each trick, in order (replayed through the engine)."""
        from engine.observe import ObservedDeal

        obs = ObservedDeal(find_rules(self.rules), self.contract, self.dealer, self.hands)
        for seat, card in self.plays:
            obs.play(seat, card)
        return tuple(t.winner for t in obs.tricks)

    @classmethod
    def from_record(cls, record: dict[str, object], illegal: tuple[int, ...] = ()) -> SimDeal:
        """Back from `record()` (the hands and plays of a simulated deal's true record)."""
        hands = {Seat.from_str(s): tuple(Card.from_str(c) for c in cards)
                 for s, cards in record["hands"].items()}  # type: ignore[attr-defined]
        plays = tuple((Seat.from_str(s), Card.from_str(c))
                      for s, c in record["plays"])  # type: ignore[attr-defined]
        contract = Contract.from_json(record["contract"])  # type: ignore[arg-type]
        return cls(str(record["rules"]), Seat.from_str(str(record["dealer"])), contract, hands,
                   plays, tuple(illegal))

    def record(self) -> dict[str, object]:
        """The deal in the engine's record format (rules, dealer, contract, hands, plays)."""
        return {
            "rules": self.rules,
            "dealer": str(self.dealer),
            "contract": self.contract.to_json(),
            "hands": {str(s): [str(c) for c in self.hands[s]] for s in Seat},
            "plays": [[str(s), str(c)] for s, c in self.plays],
        }


def random_contract(rng: random.Random, rules: RuleSet) -> Contract:
    """A contract the preset allows: a random taker, trump mode, bid and coinche level."""
    taker = rng.choice(list(Seat))
    trump = rng.choice(list(rules.trump_modes))
    if rules.auction == "belote":
        bid: int = 82  # belote prise has no bid: the takers must make 82 (docs/rules.md §4)
        return Contract(taker, bid, trump, 1)
    bid = rng.randrange(rules.bid_min, rules.bid_max + 1, rules.bid_step)
    coinche = rng.choices((1, 2, 4), weights=(8, 2, 1))[0]
    return Contract(taker, bid, trump, coinche)


def deal_hands(rng: random.Random) -> dict[Seat, tuple[Card, ...]]:
    """Shuffle the 32 cards and give eight to each seat."""
    deck = list(DECK)
    rng.shuffle(deck)
    return {seat: tuple(deck[8 * i : 8 * i + 8]) for i, seat in enumerate(Seat)}


def _legal(obs: ObservedDeal, seat: Seat, hand: list[Card]) -> list[Card]:
    """Cards of `hand` the engine accepts now: probe each on the observed deal, then undo."""
    legal = []
    for card in hand:
        before = len(obs.violations)
        obs.play(seat, card)
        ok = len(obs.violations) == before
        obs.undo()
        if ok:
            legal.append(card)
    return legal


def play_deal(
    rng: random.Random, rules_spec: str = "ffb-coinche", n_illegal: int = 0, tries: int = 200
) -> SimDeal:
    """Deal, pick a contract and play 32 cards with a random legal policy, `n_illegal` revokes.

    An injected play is a card of the player's hand the rules forbid at that moment (not
    following suit, not trumping, ...). Every later play stays legal, so the deal completes and
    the hands in the record prove each violation. Retries new deals until the revokes fit.
    """
    from engine.deal import Deal
    from engine.observe import ObservedDeal

    rules = find_rules(rules_spec)
    for _ in range(tries):
        dealer = rng.choice(list(Seat))
        contract = random_contract(rng, rules)
        hands = deal_hands(rng)
        held = {s: list(h) for s, h in hands.items()}
        obs = ObservedDeal(rules, contract, dealer, hands)
        strict: Deal | None = Deal(  # the policy's legal set while no revoke
            rules, contract, dealer, hands)
        plays: list[tuple[Seat, Card]] = []
        illegal: list[int] = []
        # Spread the revokes over tricks 1-7 (the last trick has no choice).
        slots = sorted(rng.sample(range(4, 28), n_illegal)) if n_illegal else []
        for i in range(32):
            seat = obs.turn
            assert seat is not None
            hand = held[seat]
            # Sorted: a frozenset's order changes from run to run, and a seed must give one deal.
            legal = (
                sorted(strict.legal_cards(), key=lambda c: c.index)
                if strict is not None
                else _legal(obs, seat, hand)
            )
            bad = [c for c in hand if c not in legal]
            if slots and i >= slots[0] and bad:
                card = rng.choice(bad)
                illegal.append(i)
                slots.pop(0)
                strict = None  # the strict engine refuses the revoke: probe the observer now
            else:
                card = rng.choice(legal)
                if strict is not None:
                    strict.play(card)
            obs.play(seat, card)
            hand.remove(card)
            plays.append((seat, card))
        if not slots and len(illegal) == n_illegal:
            name = rules_spec if isinstance(rules_spec, str) else rules.name
            return SimDeal(name, dealer, contract, hands, tuple(plays), tuple(illegal))
    raise ValueError(f"could not place {n_illegal} illegal plays in a deal after {tries} tries")


# --- The timeline -----------------------------------------------------------------------------

CARD_CM = (5.7, CARD_LENGTH_CM)  # a belote card, width x height (the felt: TABLE_CM across)
# Unit vector from the centre towards each seat, and the card's base rotation (degrees,
# counterclockwise on screen) so that it faces the player who put it down.
SIDE = {Seat.N: (0.0, -1.0), Seat.E: (1.0, 0.0), Seat.S: (0.0, 1.0), Seat.W: (-1.0, 0.0)}
FACING = {Seat.S: 0.0, Seat.E: 90.0, Seat.N: 180.0, Seat.W: 270.0}


@dataclass(frozen=True, slots=True)
class CardPose:
    """A card face up on the table (or in a hand moving over it)."""

    card: Card
    x: float
    y: float
    angle: float


@dataclass(frozen=True, slots=True)
class HandPose:
    """A player's hand over the felt: fingertips at (x, y), the arm back to `seat`'s edge."""

    seat: Seat
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Scene:
    """What the camera has in view at one moment. Hands are drawn over the cards."""

    cards: tuple[CardPose, ...]
    hands: tuple[HandPose, ...]
    backs: tuple[tuple[float, float, float], ...] = ()  # face-down cards (x, y, angle)
    objects: tuple[TableObject, ...] = ()


@dataclass
class _Track:
    """Keyframes (t, pose or None when absent); linear interpolation between them."""

    keys: list[tuple[float, tuple[float, float, float] | None]] = field(default_factory=list)

    def add(self, t: float, pose: tuple[float, float, float] | None) -> None:
        self.keys.append((t, pose))

    def at(self, t: float) -> tuple[float, float, float] | None:
        if not self.keys or t < self.keys[0][0]:
            return None
        prev_t, prev = self.keys[0]
        for kt, pose in self.keys[1:]:
            if t < kt:
                if prev is None or pose is None:
                    return prev
                a = (t - prev_t) / (kt - prev_t)
                return tuple(p + a * (q - p) for p, q in zip(prev, pose, strict=True))  # type: ignore[return-value]
            prev_t, prev = kt, pose
        return prev


@dataclass
class Timeline:
    """Where everything is over time, and when each play settles (card still and uncovered)."""

    duration: float
    t_settled: list[float]  # the card lies still where it will stay and no hand covers it
    t_landed: list[float]  # the card lies still where it will stay (the hand may still be on it)
    cards: dict[Card, _Track]
    hands: list[tuple[Seat, _Track]]
    gathered: list[float]  # when each trick's cards have vanished
    clutter: TableClutter | None = None  # piles of tricks won, objects (`vision.table_clutter`)

    def scene_at(self, t: float) -> Scene:
        cards = tuple(
            CardPose(card, *pose)
            for card, track in self.cards.items()
            if (pose := track.at(t)) is not None
        )
        hands = tuple(
            HandPose(seat, pose[0], pose[1])
            for seat, track in self.hands
            if (pose := track.at(t)) is not None
        )
        if self.clutter is None:
            return Scene(cards, hands)
        return Scene(cards, hands, self.clutter.backs_at(t), self.clutter.objects)


def _edge(seat: Seat, along: float = 0.0) -> tuple[float, float]:
    """A point on the felt's edge in front of `seat`, `along` cm to the side."""
    sx, sy = SIDE[seat]
    half = TABLE_CM / 2 + 6  # the arm comes from just outside the picture
    return (sx * half - sy * along, sy * half + sx * along)


def _spot(seat: Seat, rng: random.Random) -> tuple[float, float, float]:
    """Where `seat` puts a card in the middle: in front of the player, slightly off, rotated."""
    sx, sy = SIDE[seat]
    dist = 8.5 + rng.uniform(-1.5, 1.5)
    side = rng.uniform(-2.5, 2.5)
    angle = FACING[seat] + rng.uniform(-20.0, 20.0)
    return (sx * dist - sy * side, sy * dist + sx * side, angle)


def build_timeline(
    deal: SimDeal, rng: random.Random, pace: float = 1.0, nudges: float = 0.15,
    passes: float = 0.2, clutter: bool = False,
) -> Timeline:
    """Stage the deal on the felt: each card brought in by a hand, left in front of its player,
    sometimes nudged later; stray hands passing over the cards; each trick swept to its winner.

    `pace` scales every duration (0.5 plays twice as fast). `nudges` and `passes` are the chances
    that a card is pushed after it landed and that a hand passes over a trick in progress.
    `clutter`: the tricks stay face down in piles, and objects lie near the corners.
    """
    winners = deal.winners
    cards: dict[Card, _Track] = {}
    hands: list[tuple[Seat, _Track]] = []
    settled: list[float] = []
    landed: list[float] = []
    gathered: list[float] = []
    t = 1.0 * pace  # an empty table first
    for trick in range(8):
        on_table: list[tuple[Card, tuple[float, float, float]]] = []
        for k in range(4):
            seat, card = deal.plays[4 * trick + k]
            x, y, angle = _spot(seat, rng)
            ex, ey = _edge(seat, rng.uniform(-8, 8))
            reach, hover, back = 0.5 * pace, 0.25 * pace, 0.4 * pace
            # Hand carries the card in (the card rides under the fingertips, 3 cm behind them).
            hand = _Track()
            track = _Track()
            sx, sy = SIDE[seat]
            hand.add(t, (ex, ey, 0.0))
            track.add(t, (ex + 3 * sx, ey + 3 * sy, angle))
            t_land = t + reach
            hand.add(t_land, (x - 3 * sx, y - 3 * sy, 0.0))
            track.add(t_land, (x, y, angle))
            hand.add(t_land + hover, (x - 2 * sx, y - 2 * sy, 0.0))
            hand.add(t_land + hover + back, (ex, ey, 0.0))
            hand.add(t_land + hover + back + 1e-3, None)
            hands.append((seat, hand))
            cards[card] = track
            # Settled: still and no longer covered (the hand has drawn back past the card).
            settled.append(t_land + hover + 0.5 * back)
            landed.append(t_land)
            on_table.append((card, (x, y, angle)))
            t = t_land + hover + back + rng.uniform(0.2, 0.7) * pace
            if k and rng.random() < nudges:
                t = _nudge(rng, cards, hands, on_table, t, pace)
            if rng.random() < passes:
                t = _pass_over(rng, hands, t, pace)
        t += rng.uniform(0.6, 1.2) * pace  # everyone looks at the trick
        t = _gather(winners[trick], cards, hands, on_table, t, pace)
        gathered.append(t)
        t += rng.uniform(0.3, 0.8) * pace
    table = None
    if clutter:  # drawn last, from its own generator: the deal is staged as without it
        # Each trick is turned onto its pile as the sweep ends (`_gather`: 0.4 * pace before).
        turned = [(w, g - 0.4 * pace) for w, g in zip(winners, gathered, strict=True)]
        table = lay_clutter(turned, SIDE, FACING, random.Random(rng.randrange(2**31)))
    return Timeline(t + 1.0 * pace, settled, landed, cards, hands, gathered, table)


def _nudge(
    rng: random.Random, cards: dict[Card, _Track], hands: list[tuple[Seat, _Track]],
    on_table: list[tuple[Card, tuple[float, float, float]]], t: float, pace: float,
) -> float:
    """A player straightens a card already down: a hand touches it and it moves a little."""
    j = rng.randrange(len(on_table))
    card, (x, y, angle) = on_table[j]
    seat = next(s for s in Seat if _owner_side(x, y) == s)
    sx, sy = SIDE[seat]
    dx, dy, da = rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-8, 8)
    ex, ey = _edge(seat)
    hand = _Track()
    hand.add(t, (ex, ey, 0.0))
    hand.add(t + 0.4 * pace, (x - 2 * sx, y - 2 * sy, 0.0))
    hand.add(t + 0.7 * pace, (x + dx - 2 * sx, y + dy - 2 * sy, 0.0))
    hand.add(t + 1.1 * pace, (ex, ey, 0.0))
    hand.add(t + 1.1 * pace + 1e-3, None)
    hands.append((seat, hand))
    track = cards[card]
    track.add(t + 0.4 * pace, (x, y, angle))
    track.add(t + 0.7 * pace, (x + dx, y + dy, angle + da))
    on_table[j] = (card, (x + dx, y + dy, angle + da))
    return t + 1.3 * pace


def _owner_side(x: float, y: float) -> Seat:
    """The seat whose side of the middle (x, y) lies on."""
    return max(Seat, key=lambda s: SIDE[s][0] * x + SIDE[s][1] * y)


def _pass_over(
    rng: random.Random, hands: list[tuple[Seat, _Track]], t: float, pace: float
) -> float:
    """A hand reaches across the middle (for the score pad, a glass...) and goes back."""
    seat = rng.choice(list(Seat))
    sx, sy = SIDE[seat]
    along = rng.uniform(-10, 10)
    ex, ey = _edge(seat, along)
    far = rng.uniform(-8, 4)  # how far past the centre the fingertips go
    hand = _Track()
    hand.add(t, (ex, ey, 0.0))
    hand.add(t + 0.6 * pace, (-sx * far - sy * along, -sy * far + sx * along, 0.0))
    hand.add(t + 1.0 * pace, (-sx * far - sy * along, -sy * far + sx * along, 0.0))
    hand.add(t + 1.6 * pace, (ex, ey, 0.0))
    hand.add(t + 1.6 * pace + 1e-3, None)
    hands.append((seat, hand))
    return t + 1.8 * pace


def _gather(
    winner: Seat, cards: dict[Card, _Track], hands: list[tuple[Seat, _Track]],
    on_table: list[tuple[Card, tuple[float, float, float]]], t: float, pace: float,
) -> float:
    """The winner sweeps the four cards towards their side in one move; they vanish there."""
    sx, sy = SIDE[winner]
    ex, ey = _edge(winner)
    far = -sx * 16, -sy * 16  # fingertips reach past the far card
    hand = _Track()
    hand.add(t, (ex, ey, 0.0))
    t_reach = t + 0.5 * pace
    hand.add(t_reach, (far[0], far[1], 0.0))
    t_pile = t_reach + 0.6 * pace
    pile = (sx * 30, sy * 30)
    hand.add(t_pile, (pile[0] - 3 * sx, pile[1] - 3 * sy, 0.0))
    hand.add(t_pile + 0.4 * pace, (ex, ey, 0.0))
    hand.add(t_pile + 0.4 * pace + 1e-3, None)
    hands.append((winner, hand))
    for card, (x, y, angle) in on_table:
        track = cards[card]
        # Each card starts moving when the sweeping hand reaches it.
        progress = (16 - (-(sx * x + sy * y))) / 46  # 0 at the far end, 1 at the pile
        t_touch = t_reach + 0.6 * pace * max(0.0, min(1.0, progress))
        track.add(t_touch, (x, y, angle))
        track.add(t_pile, (pile[0] + 0.3 * x * abs(sy), pile[1] + 0.3 * y * abs(sx),
                           FACING[winner] + 0.2 * (angle - FACING[winner])))
        track.add(t_pile + 1e-3, None)
    return t_pile + 0.4 * pace
