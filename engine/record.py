"""JSON game records (version 1): read leniently, write, and judge into the `belote score` object.

>>> rec = load_record({"rules": "ffb-coinche", "dealer": "E",
...                    "contract": {"taker": "N", "bid": 90, "trump": "H"},
...                    "plays": [["N", "7S"], ["W", "8S"], ["S", "AS"], ["E", "TS"]]})
>>> out = judge(rec)
>>> out["tricks"], out["card_points"], out["score"]
([{'leader': 'N', 'winner': 'S', 'points': 21}], None, None)
>>> load_record({"rules": "ffb-coinche", "dealer": "E", "contract": rec.deals[0].contract.to_json(),
...              "plays": [["N", "7X"]]})
Traceback (most recent call last):
...
engine.record.RecordError: plays[0][1]: unknown card '7X': unknown suit 'X': expected one of S H D C

Two forms (docs/record-format.md): a deal `{"rules", "dealer", "contract", "plays", ...}` and a
game `{"rules", "dealer", "deals": [deal, ...]}` whose deals inherit the rules and the dealer
rotation. Like python-chess's PGN reader, `read_record` never raises: it collects every error
(`Record.errors`, each naming its field path); `load_record` raises the first as `RecordError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

from engine.annonces import AnnonceError, annonce_of
from engine.auction import AuctionError, auction_for
from engine.cards import DECK, Card, CardError, Seat
from engine.contract import Contract, ContractError
from engine.deal_record import RECORD_VERSION, Announce, DealRecord, Record, unread_plays
from engine.rules import RulesError, RuleSet, find_rules

__all__ = ["RECORD_VERSION", "Announce", "DealRecord", "Record", "RecordError", "judge",
           "load_record", "read_record"]
# Fast paths for the usual spellings (records hold thousands of cards); others go to from_str.
_CARDS = {**{str(c): c for c in DECK}, **{f"10{c.suit}": c for c in DECK if c.rank.value == "T"}}
_SEATS = {s.value: s for s in Seat}
_PLAYS = {(s, c): (seat, card) for s, seat in _SEATS.items() for c, card in _CARDS.items()}
_DEAL_KEYS = {"dealer", "contract", "hands", "plays", "announces", "belote", "auction",
              "turned", "meta"}
_TOP_KEYS = {"version", "rules", "meta"}
X = TypeVar("X")


class RecordError(ValueError):
    """A record that cannot be read; the message starts with the field path. `.errors`: all."""

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__(errors[0] if errors else "bad record")
        self.errors = list(errors)


class _Reader:
    """Collects errors with their field paths while reading."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def err(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}" if path else message)

    def get(self, path: str, fn: Callable[[], X]) -> X | None:
        try:
            return fn()
        except (CardError, ContractError, RulesError, AnnonceError, AuctionError) as exc:
            self.err(path, str(exc))
        except (TypeError, AttributeError, ValueError) as exc:
            self.err(path, f"cannot read it ({exc})")
        return None

    def list_at(self, obj: Mapping[str, Any], key: str, path: str) -> list[Any]:
        value = obj.get(key, [])
        if value is None:
            return []
        if not isinstance(value, list):
            self.err(path, f"expected a list, got {type(value).__name__}")
            return []
        return value

    def seat(self, value: Any, path: str) -> Seat | None:
        fast = _SEATS.get(value) if isinstance(value, str) else None
        return fast or self.get(path, lambda: Seat.from_str(value))

    def card(self, value: Any, path: str) -> Card | None:
        fast = _CARDS.get(value) if isinstance(value, str) else None
        return fast or self.get(path, lambda: Card.from_str(value))


def read_record(obj: object) -> Record:
    """Read a deal or game record leniently: never raises, errors in `Record.errors`."""
    rd = _Reader()
    if not isinstance(obj, Mapping):
        return Record(find_rules("ffb-coinche"), (), False, ("record must be a JSON object",))
    game = "deals" in obj
    allowed = _TOP_KEYS | ({"deals", "dealer"} if game else _DEAL_KEYS)
    for key in obj:
        if key not in allowed:
            rd.err(str(key), "unknown field" + (" (a game record lists its deals in 'deals')"
                                                if game and key in _DEAL_KEYS else ""))
    version = obj.get("version", RECORD_VERSION)
    if version != RECORD_VERSION or isinstance(version, bool):
        rd.err("version", f"unknown version {version!r}; this reader knows {RECORD_VERSION}")
    if "rules" not in obj:
        rd.err("rules", "missing (a preset name such as 'ffb-coinche', or {\"preset\": ...})")
    rules = rd.get("rules", lambda: find_rules(obj["rules"])) if "rules" in obj else None
    if rules is None:
        rules = find_rules("ffb-coinche")
    deals: list[DealRecord] = []
    if not game:
        d = _read_deal(rd, obj, "", rules, None)
        if d is not None:
            deals.append(d)
        return Record(rules, tuple(deals), False, tuple(rd.errors))
    dealer = rd.seat(obj["dealer"], "dealer") if "dealer" in obj else None
    items = rd.list_at(obj, "deals", "deals")
    for i, item in enumerate(items):
        path = f"deals[{i}]"
        if not isinstance(item, Mapping):
            rd.err(path, "a deal must be an object")
            continue
        if "rules" in item or "version" in item:
            rd.err(f"{path}.rules", "a game record sets the rules once, at the top")
        d = _read_deal(rd, item, path + ".", rules, dealer)
        if d is None:
            break  # the dealer rotation is lost after a deal we cannot read
        seen = len(d.seen)  # unread plays count: they were played
        if i < len(items) - 1 and d.contract is not None and seen != 32:
            rd.err(f"{path}.plays", f"only the last deal of a game may stop mid-deal "
                   f"({seen} plays)")
        deals.append(d)
        dealer = d.dealer.next(rules.clockwise)
    return Record(rules, tuple(deals), True, tuple(rd.errors))


def load_record(obj: object) -> Record:
    """Read a record strictly: `RecordError` names the first bad field (`.errors` has all)."""
    rec = read_record(obj)
    if rec.errors:
        raise RecordError(rec.errors)
    return rec


def _read_deal(rd: _Reader, obj: Mapping[str, Any], p: str, rules: RuleSet,
               expected_dealer: Seat | None) -> DealRecord | None:
    for key in obj:
        if p and key not in _DEAL_KEYS | {"rules", "version"}:
            rd.err(f"{p}{key}", "unknown field")
    if "dealer" in obj:
        dealer = rd.seat(obj["dealer"], f"{p}dealer")
        if dealer is not None and expected_dealer is not None and dealer is not expected_dealer:
            rd.err(f"{p}dealer", f"expected {expected_dealer} (the deal passes "
                   f"{rules.direction}), got {dealer}")
    else:
        dealer = expected_dealer
        if dealer is None:
            rd.err(f"{p}dealer", "missing (N, E, S or W)")
    if dealer is None:
        return None
    contract = _read_contract(rd, obj, p, rules, dealer)
    raw_plays = rd.list_at(obj, "plays", f"{p}plays")
    if len(raw_plays) > 32:
        rd.err(f"{p}plays", f"a deal has at most 32 plays, got {len(raw_plays)}")
    if raw_plays and "contract" in obj and obj["contract"] is None:
        rd.err(f"{p}plays", "a thrown-in deal (contract null) has no plays")
    doubts: list[tuple[int, tuple[Card, ...]]] = []
    read = _usual_plays(raw_plays[:32]) or _read_plays(rd, raw_plays[:32], p, doubts)
    hands = _read_hands(rd, obj, p) if obj.get("hands") is not None else None
    plays, deduced, unread, rest, ties = unread_plays(read, rules, contract, dealer, hands)
    announces: list[Announce] = []
    used: dict[tuple[Seat, Card], int] = {}
    for i, a in enumerate(rd.list_at(obj, "announces", f"{p}announces")):
        ap = f"{p}announces[{i}]"
        if not isinstance(a, Mapping) or set(a) != {"seat", "cards"}:
            rd.err(ap, "expected {\"seat\": ..., \"cards\": [...]}")
            continue
        seat = rd.seat(a["seat"], f"{ap}.seat")
        if not isinstance(a["cards"], list):
            rd.err(f"{ap}.cards", f"expected a list of cards such as [\"QD\", \"KD\", \"AD\"], "
                   f"got {a['cards']!r}")
            continue
        cards = [rd.card(c, f"{ap}.cards[{j}]") for j, c in enumerate(a["cards"])]
        if seat is None or None in cards or contract is None:
            if contract is None and "contract" in obj:
                rd.err(ap, "announces need a contract")
            continue
        good = tuple(c for c in cards if c is not None)
        if rd.get(f"{ap}.cards", partial(annonce_of, good, contract.trump, rules)) is None:
            continue
        clash = [c for c in good if (seat, c) in used]
        if clash:
            rd.err(f"{ap}.cards", f"{clash[0]} is already in announces[{used[(seat, clash[0])]}]"
                   " (a card counts in one annonce only)")
            continue
        used.update({(seat, c): i for c in good})
        announces.append(Announce(seat, good))
    belote = [rd.seat(s, f"{p}belote[{i}]")
              for i, s in enumerate(rd.list_at(obj, "belote", f"{p}belote"))]
    return DealRecord(dealer, contract, tuple(plays), hands, tuple(announces),
                      tuple(s for s in belote if s is not None),
                      _auction_calls(obj), rd.card(obj["turned"], f"{p}turned")
                      if obj.get("turned") is not None else None, deduced, unread, rest, ties,
                      tuple(doubts))


def _usual_plays(raw: list[Any]) -> list[tuple[Seat, Card | None]] | None:
    """The plays when each is [seat, card] in the usual spelling (most records), else None."""
    try:
        plays: list[tuple[Seat, Card | None]] = [
            _PLAYS[pair[0], pair[1]] for pair in raw if type(pair) is list and len(pair) == 2]
    except (KeyError, TypeError):  # an unusual spelling, or an error the slow path names
        return None
    return plays if len(plays) == len(raw) else None


def _read_plays(rd: _Reader, raw: list[Any], p: str,
                doubts: list[tuple[int, tuple[Card, ...]]]) -> list[tuple[Seat, Card | None]]:
    """The plays that can be read, naming each one that cannot; a null card is a play nobody
    could read (`engine.deduce`); a third item lists the other cards a play read in doubt
    may have been (appended to `doubts`)."""
    plays: list[tuple[Seat, Card | None]] = []
    for i, pair in enumerate(raw):
        if not isinstance(pair, list) or len(pair) not in (2, 3):
            rd.err(f"{p}plays[{i}]", f"expected [seat, card] or [seat, card, [other cards]], "
                   f"got {pair!r}")
            continue
        seat = rd.seat(pair[0], f"{p}plays[{i}][0]")
        card = None if pair[1] is None else rd.card(pair[1], f"{p}plays[{i}][1]")
        if len(pair) == 3:
            others = _read_others(rd, pair[2], card, pair[1] is None, f"{p}plays[{i}][2]")
            if others:
                doubts.append((len(plays), others))
        if seat is not None and (card is not None or pair[1] is None):
            plays.append((seat, card))
    return plays


def _read_others(rd: _Reader, raw: Any, card: Card | None, unread: bool,
                 path: str) -> tuple[Card, ...]:
    """The other readings of a play in doubt: cards other than the one read."""
    if unread:
        rd.err(path, "an unread play (card null) has no other readings")
        return ()
    if not isinstance(raw, list):
        rd.err(path, f"expected a list of cards such as [\"QD\"], got {raw!r}")
        return ()
    cards = [rd.card(c, f"{path}[{j}]") for j, c in enumerate(raw)]
    return tuple(dict.fromkeys(c for c in cards if c is not None and c != card))


def _auction_calls(obj: Mapping[str, Any]) -> tuple[str, ...] | None:
    calls = obj.get("auction")
    return tuple(str(c) for c in calls) if isinstance(calls, list) else None


def _read_contract(rd: _Reader, obj: Mapping[str, Any], p: str, rules: RuleSet,
                   dealer: Seat) -> Contract | None:
    """The contract, checked against the rules; derived from `auction` when that is given."""
    contract: Contract | None = None
    if obj.get("contract") is not None:
        contract = rd.get(f"{p}contract", lambda: Contract.from_json(obj["contract"]))
    elif "contract" not in obj and "auction" not in obj:
        rd.err(f"{p}contract", "missing (null for a thrown-in deal)")
    if contract is not None:
        why = _contract_problem(contract, rules)
        if why is not None:
            rd.err(f"{p}contract.{why[0]}", why[1])
            contract = None
    if "auction" not in obj:
        return contract
    calls = obj["auction"]
    if not isinstance(calls, list):
        rd.err(f"{p}auction", "expected a list of calls such as [\"80 H\", \"pass\"]")
        return contract
    turned = rd.card(obj["turned"], f"{p}turned") if obj.get("turned") is not None else None
    auction = rd.get(f"{p}auction", lambda: auction_for(rules, dealer, turned))
    if auction is None:
        return contract
    for i, call in enumerate(calls):
        rd.get(f"{p}auction[{i}]", partial(auction.call, str(call)))
        if len(auction.calls) != i + 1:  # refused: the error is recorded
            return contract
    if not auction.is_over:
        rd.err(f"{p}auction", f"the auction is not over after {len(calls)} calls")
        return contract
    derived = auction.contract
    if "contract" in obj and derived != contract:
        rd.err(f"{p}contract", f"the auction gives {derived or 'a thrown-in deal'}, the record "
               f"says {contract or 'thrown in'}")
    return derived


def _contract_problem(c: Contract, rules: RuleSet) -> tuple[str, str] | None:
    if c.trump not in rules.trump_modes:
        return "trump", f"{c.trump} is not a trump mode of {rules.name}"
    if c.bid == "capot" and rules.capot_bid is None:
        return "bid", f"{rules.name} has no capot bid"
    if c.bid == "generale" and rules.generale_bid is None:
        return "bid", f"{rules.name} has no générale bid"
    if isinstance(c.bid, int) and rules.auction == "coinche" and not (
            rules.bid_min <= c.bid <= rules.bid_max and (c.bid - rules.bid_min) % rules.bid_step
            == 0):
        return "bid", (f"{c.bid} is not a bid of {rules.name} ({rules.bid_min} to "
                       f"{rules.bid_max} by {rules.bid_step})")
    return None


def _read_hands(rd: _Reader, obj: Mapping[str, Any], p: str) -> dict[Seat, tuple[Card, ...]] | None:
    raw = obj["hands"]
    if not isinstance(raw, Mapping) or {str(k).upper() for k in raw} != {"N", "E", "S", "W"}:
        rd.err(f"{p}hands", "expected an object with the four seats N E S W")
        return None
    hands: dict[Seat, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {}
    ok = True
    for key, cards in raw.items():
        seat = Seat.from_str(str(key))
        hp = f"{p}hands.{seat}"
        if not isinstance(cards, list) or len(cards) != 8:
            rd.err(hp, "expected a list of 8 cards")
            ok = False
            continue
        got = [rd.card(c, f"{hp}[{i}]") for i, c in enumerate(cards)]
        for i, c in enumerate(got):
            if c is None:
                ok = False
            elif c in seen:
                rd.err(f"{hp}[{i}]", f"{c} is also in {seen[c]}")
                ok = False
            else:
                seen[c] = f"{hp}"
        hands[seat] = tuple(c for c in got if c is not None)
    return hands if ok else None


def judge(record: Record) -> dict[str, object]:
    """The `belote score` object of a record (see `engine.referee`)."""
    from engine.referee import judge_record

    return judge_record(record)
