"""Which cards a seat may play, and why a card is illegal, under every play knob of the rule set.

Hands and tricks are 32-bit masks of `Card.index` for speed; the `Card` helpers wrap them.

>>> from engine.cards import parse_cards
>>> from engine.rules import find_rules
>>> hand = parse_cards(["7S", "8H", "JH"])
>>> trick = parse_cards(["AD", "9H"])  # diamonds led, opponent trumped with the 9 of hearts
>>> sorted(map(str, legal_cards(hand, trick, Trump.HEARTS, find_rules("ffb-coinche"))))
['JH']
>>> illegal_reason(Card.from_str("7S"), hand, trick, Trump.HEARTS, find_rules("ffb-coinche"))
'must-overtrump'

Every illegal play breaks one of these rules (names used in records and on the page):
`follow-suit`, `must-trump`, `must-overtrump`, `must-undertrump`, `must-go-up` (tout-atout).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import DECK, Card
from engine.contract import Trump
from engine.rules import RuleSet
from engine.tricks import CardTables, tables

FOLLOW_SUIT = "follow-suit"
MUST_TRUMP = "must-trump"
MUST_OVERTRUMP = "must-overtrump"
MUST_UNDERTRUMP = "must-undertrump"
MUST_GO_UP = "must-go-up"
PLAY_RULES = (FOLLOW_SUIT, MUST_TRUMP, MUST_OVERTRUMP, MUST_UNDERTRUMP, MUST_GO_UP)

Forbidding = tuple[tuple[int, str], ...]


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of a set of cards."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def cards_of(mask: int) -> frozenset[Card]:
    """The cards of a bitmask."""
    return frozenset(DECK[i] for i in range(32) if mask >> i & 1)


def _highest_trump(trick: Sequence[int], t: CardTables) -> int:
    """Index of the strongest trump in the trick, or -1 (suit contracts only)."""
    best = -1
    for c in trick:
        if t.trump_mask >> c & 1 and (best < 0 or t.strength[c] > t.strength[best]):
            best = c
    return best


def legal_mask(hand: int, trick: Sequence[int], t: CardTables, rules: RuleSet) -> int:
    """Legal cards (mask) of a hand (mask) after `trick` (card indices in play order)."""
    if not trick:
        return hand
    led = t.suit_mask[trick[0] >> 3]
    follow = hand & led
    if t.trump_suit < 0:  # SA or TA: follow suit; at TA go higher than the best card if you can
        if not follow:
            return hand
        if t.trump_mask:
            best = trick[t.winning_position(trick)]
            return (follow & t.above[best]) or follow
        return follow
    trumps = hand & t.trump_mask
    win = t.winning_position(trick)
    partner_master = win == len(trick) - 2
    if led == t.trump_mask:  # trump led
        if not trumps:
            return hand
        if partner_master and not rules.trump_led_overtrump_partner:
            return trumps
        return (trumps & t.above[trick[win]]) or trumps
    if follow:
        return follow
    if not trumps:
        return hand
    best = trick[win]
    best_is_trump = t.trump_mask >> best & 1
    if partner_master:
        if rules.overtrump_partner_on_cut and best_is_trump:
            over = trumps & t.above[best]
            if over:
                return (hand & ~t.trump_mask) | over
        return hand
    if not best_is_trump:
        return trumps
    over = trumps & t.above[best]
    if over:
        return over
    return trumps if rules.undertrump == "required" else hand


def forbidding(card: int, trick: Sequence[int], t: CardTables, rules: RuleSet) -> Forbidding:
    """What would make `card` illegal after `trick`: (mask, rule) pairs, most important first.

    The card is illegal exactly when the hand held any card of one of the masks; the rule broken
    is that of the first such mask. A camera that later sees the player show such a card has
    proven the play illegal.
    """
    if not trick:
        return ()
    lead_suit = trick[0] >> 3
    led = t.suit_mask[lead_suit]
    suit = card >> 3
    if t.trump_suit < 0:
        if suit != lead_suit:
            return ((led, FOLLOW_SUIT),)
        if t.trump_mask:
            best = trick[t.winning_position(trick)]
            if t.above[best] and not t.above[best] >> card & 1:
                return ((t.above[best], MUST_GO_UP),)
        return ()
    is_trump = suit == t.trump_suit
    if suit == lead_suit and not is_trump:
        return ()  # following a plain suit is always legal (checked first: the common case)
    win = t.winning_position(trick)
    best = trick[win]
    partner_master = win == len(trick) - 2
    best_is_trump = bool(t.trump_mask >> best & 1)
    beats_best = best_is_trump and bool(t.above[best] >> card & 1)
    if led == t.trump_mask:
        if not is_trump:
            return ((led, FOLLOW_SUIT),)
        if partner_master and not rules.trump_led_overtrump_partner:
            return ()
        return () if beats_best or not t.above[best] else ((t.above[best], MUST_OVERTRUMP),)
    parts: list[tuple[int, str]] = [(led, FOLLOW_SUIT)]
    over = t.above[best] if best_is_trump else 0
    if partner_master:
        if rules.overtrump_partner_on_cut and best_is_trump and is_trump and not beats_best \
                and over:
            parts.append((over, MUST_OVERTRUMP))
    elif not best_is_trump:
        if not is_trump:
            parts.append((t.trump_mask, MUST_TRUMP))
    elif not beats_best:
        if over:
            parts.append((over, MUST_OVERTRUMP))
        if not is_trump and rules.undertrump == "required":
            parts.append((t.trump_mask, MUST_UNDERTRUMP))
    return tuple(parts)


def reason_from(hand: int, parts: Forbidding) -> str | None:
    """The rule a play breaks given what the hand held (None if none)."""
    for mask, rule in parts:
        if hand & mask:
            return rule
    return None


def legal_cards(hand: Iterable[Card], trick: Sequence[Card], trump: Trump,
                rules: RuleSet) -> frozenset[Card]:
    """The cards of `hand` that may be played after the cards of `trick` (in play order)."""
    t = tables(trump, rules)
    return cards_of(legal_mask(mask_of(hand), [c.index for c in trick], t, rules))


def illegal_reason(card: Card, hand: Iterable[Card], trick: Sequence[Card], trump: Trump,
                   rules: RuleSet) -> str | None:
    """Why playing `card` from `hand` after `trick` is illegal (a rule name), or None if legal.

    Only the play rules are judged here; whose turn it is and whether the card is in the hand
    are the caller's business (`Deal`, `ObservedDeal`).
    """
    t = tables(trump, rules)
    parts = forbidding(card.index, [c.index for c in trick], t, rules)
    return reason_from(mask_of(hand), parts)
