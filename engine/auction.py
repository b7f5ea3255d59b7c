"""The two auctions: coinche bidding (bids, coinche, surcoinche) and the belote prise (turned card).

>>> a = CoincheAuction(find_rules("ffb-coinche"), dealer=Seat.N)
>>> for text in ["80 H", "pass", "90 S", "coinche", "surcoinche"]:
...     a.call(text)
>>> a.contract
Contract(taker=Seat.E, bid=90, trump=Trump.SPADES, coinche=4)
>>> b = BeloteAuction(find_rules("coinchepassion-belote"), Seat.N, Card.from_str("7D"))
>>> for text in ["pass"] * 4 + ["take C"]:
...     b.call(text)
>>> b.contract
Contract(taker=Seat.W, bid=82, trump=Trump.CLUBS, coinche=1)

Speaking starts next to the dealer and turns in the rule set's direction (`next_dealer` as well).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Seat
from engine.contract import Bid, Contract, ContractError, Trump
from engine.rules import RuleSet, find_rules

__all__ = [
    "PRISE_BID", "AuctionError", "BeloteAuction", "Call", "CoincheAuction", "auction_for",
    "next_dealer",
]

# A belote prise has no bid value: the takers must make 82 (docs/rules.md §4). Contracts carry 82.
PRISE_BID = 82


class AuctionError(ValueError):
    """A call that is impossible in the current state of the auction."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call: `pass`, a bid (`80 H`, `capot SA`), `coinche`, `surcoinche`, `take [suit]`."""

    kind: str  # "pass" | "bid" | "coinche" | "surcoinche" | "take"
    bid: Bid | None = None
    trump: Trump | None = None

    @classmethod
    def from_str(cls, text: str) -> Call:
        """Read `pass`, `80 H`, `capot TA`, `générale S`, `coinche`, `surcoinche`, `take [H]`."""
        words = text.strip().lower().split()
        if not words:
            raise AuctionError("empty call")
        head = words[0]
        aliases = {"passe": "pass", "contre": "coinche", "surcontre": "surcoinche",
                   "prends": "take", "prend": "take"}
        head = aliases.get(head, head)
        if head in ("pass", "coinche", "surcoinche") and len(words) == 1:
            return cls(head)
        try:
            if head == "take" and len(words) <= 2:
                return cls("take", trump=Trump.from_str(words[1]) if len(words) == 2 else None)
            if len(words) == 2:
                value: Bid
                if head in ("capot", "generale", "générale"):
                    value = "capot" if head == "capot" else "generale"
                else:
                    value = int(head)
                return cls("bid", value, Trump.from_str(words[1]))
        except (ValueError, ContractError):
            pass
        raise AuctionError(f"cannot read call {text!r}: expected pass, '<bid> <trump>' such as "
                           "'80 H' or 'capot SA', coinche, surcoinche, or take [suit]")

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"{self.bid} {self.trump}"
        if self.kind == "take" and self.trump is not None:
            return f"take {self.trump}"
        return self.kind


def next_dealer(dealer: Seat, rules: RuleSet) -> Seat:
    """The next deal is dealt by the dealer's neighbour in the direction of play."""
    return dealer.next(rules.clockwise)


def _rank(bid: Bid, rules: RuleSet) -> int:
    """Order of bids: numbers, then capot, then générale."""
    if bid == "capot":
        return rules.bid_max + 1
    if bid == "generale":
        return rules.bid_max + 2
    return int(bid)


class _Auction:
    """Shared state: calls in order, whose turn, over or not."""

    def __init__(self, rules: RuleSet | str, dealer: Seat) -> None:
        self.rules = find_rules(rules)
        self.dealer = dealer
        self.calls: list[tuple[Seat, Call]] = []
        self.turn: Seat | None = dealer.next(self.rules.clockwise)

    @property
    def is_over(self) -> bool:
        return self.turn is None

    def call(self, call: Call | str) -> None:
        """Make the call of the seat whose turn it is; AuctionError if it is impossible."""
        c = Call.from_str(call) if isinstance(call, str) else call
        if self.turn is None:
            raise AuctionError(f"call {c} after the auction is over ({self._state()})")
        self._check(self.turn, c)
        self.calls.append((self.turn, c))
        self._apply(self.turn, c)
        self.turn = None if self._ended() else self.turn.next(self.rules.clockwise)

    def _state(self) -> str:
        done = ", ".join(f"{s}:{c}" for s, c in self.calls) or "no call yet"
        return f"dealer {self.dealer}; calls {done}"

    def _error(self, seat: Seat, call: Call, why: str) -> AuctionError:
        return AuctionError(f"{seat} cannot call {call!s}: {why} ({self._state()})")

    def _check(self, seat: Seat, call: Call) -> None:
        raise NotImplementedError

    def _apply(self, seat: Seat, call: Call) -> None:
        raise NotImplementedError

    def _ended(self) -> bool:
        raise NotImplementedError


class CoincheAuction(_Auction):
    """Numeric bids from bid_min to bid_max, capot, générale; coinche freezes; surcoinche ends."""

    def __init__(self, rules: RuleSet | str, dealer: Seat) -> None:
        super().__init__(rules, dealer)
        self.best: tuple[Seat, Bid, Trump] | None = None
        self.coinche = 1

    def _check(self, seat: Seat, call: Call) -> None:
        r = self.rules
        if call.kind == "pass":
            return
        if call.kind == "bid":
            assert call.bid is not None and call.trump is not None
            if self.coinche > 1:
                raise self._error(seat, call, "the bid is coinched, bidding is frozen")
            if call.trump not in r.trump_modes:
                modes = " ".join(map(str, r.trump_modes))
                raise self._error(seat, call, f"{call.trump} is not a trump mode of {r.name} "
                                  f"({modes})")
            if call.bid == "capot" and r.capot_bid is None:
                raise self._error(seat, call, f"{r.name} has no capot bid")
            if call.bid == "generale" and r.generale_bid is None:
                raise self._error(seat, call, f"{r.name} has no générale bid")
            if isinstance(call.bid, int) and not (
                r.bid_min <= call.bid <= r.bid_max and (call.bid - r.bid_min) % r.bid_step == 0
            ):
                raise self._error(seat, call, f"bids go from {r.bid_min} to {r.bid_max} in "
                                  f"steps of {r.bid_step}")
            if self.best is not None and _rank(call.bid, r) <= _rank(self.best[1], r):
                raise self._error(seat, call, f"must bid higher than {self.best[1]}")
            return
        if call.kind == "coinche":
            if self.best is None:
                raise self._error(seat, call, "there is no bid to coinche")
            if self.coinche > 1:
                raise self._error(seat, call, "the bid is already coinched")
            if seat.team is self.best[0].team:
                raise self._error(seat, call, "only an opponent of the bidder may coinche")
            return
        if call.kind == "surcoinche":
            if self.coinche != 2:
                raise self._error(seat, call, "only a coinched bid can be surcoinched")
            assert self.best is not None
            if seat.team is not self.best[0].team:
                raise self._error(seat, call, "only the takers may surcoinche")
            return
        raise self._error(seat, call, "not a call of the coinche auction")

    def _apply(self, seat: Seat, c: Call) -> None:
        if c.kind == "bid":
            assert c.bid is not None and c.trump is not None
            self.best = (seat, c.bid, c.trump)
        elif c.kind == "coinche":
            self.coinche = 2
        elif c.kind == "surcoinche":
            self.coinche = 4

    def _ended(self) -> bool:
        last = self.calls[-1][1]
        if last.kind == "surcoinche":
            return True
        passes = 0
        for _, c in reversed(self.calls):
            if c.kind != "pass":
                break
            passes += 1
        # Three passes after a bid or a coinche; four passes with no bid throw the deal in.
        return passes >= 3 and (self.best is not None or passes >= 4)

    @property
    def thrown_in(self) -> bool:
        """Four passes and no bid: no score, the deal passes on."""
        return self.is_over and self.best is None

    @property
    def contract(self) -> Contract | None:
        """The contract once the auction is over; None while bidding or when thrown in."""
        if not self.is_over or self.best is None:
            return None
        seat, bid, trump = self.best
        return Contract(seat, bid, trump, self.coinche)


class BeloteAuction(_Auction):
    """The belote prise: round 1 take the turned suit or pass; round 2 name another suit or pass."""

    def __init__(self, rules: RuleSet | str, dealer: Seat, turned: Card) -> None:
        super().__init__(rules, dealer)
        self.turned = turned
        self.taken: tuple[Seat, Trump] | None = None

    @property
    def round(self) -> int:
        """1 or 2: the round of the next call."""
        return 1 if len(self.calls) < 4 else 2

    def _check(self, seat: Seat, call: Call) -> None:
        if call.kind == "pass":
            return
        if call.kind != "take":
            raise self._error(seat, call, "the belote prise only has take and pass")
        turned = Trump(self.turned.suit.value)
        if self.round == 1:
            if call.trump not in (None, turned):
                raise self._error(seat, call, f"in round 1 the trump is the turned card's suit "
                                  f"({turned})")
            return
        if call.trump is None:
            raise self._error(seat, call, "in round 2 the taker names the trump suit")
        if call.trump is turned or call.trump.suit is None:
            raise self._error(seat, call, f"in round 2 the trump is one of the three suits other "
                              f"than {turned}")
        if call.trump not in self.rules.trump_modes:
            raise self._error(seat, call, f"{call.trump} is not a trump mode of {self.rules.name}")

    def _apply(self, seat: Seat, c: Call) -> None:
        if c.kind == "take":
            self.taken = (seat, c.trump or Trump(self.turned.suit.value))

    def _ended(self) -> bool:
        return self.taken is not None or len(self.calls) == 8

    @property
    def thrown_in(self) -> bool:
        """All passed twice: the deal is cancelled, the next player deals, nobody scores."""
        return self.is_over and self.taken is None

    @property
    def contract(self) -> Contract | None:
        if self.taken is None:
            return None
        return Contract(self.taken[0], PRISE_BID, self.taken[1], 1)


def auction_for(rules: RuleSet | str, dealer: Seat,
                turned: Card | None = None) -> CoincheAuction | BeloteAuction:
    """The auction of the rule set (`auction` knob); the belote prise needs the turned card."""
    r = find_rules(rules)
    if r.auction == "belote":
        if turned is None:
            raise AuctionError(f"{r.name} uses the belote prise: the turned card is needed")
        return BeloteAuction(r, dealer, turned)
    return CoincheAuction(r, dealer)
