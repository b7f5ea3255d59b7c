"""The rules engine: cards, rule sets, auctions, play and legality, judging from plays, scoring.

Pure standard library. The public names are loaded on first use, so that `import engine.cards`
(the vision side) does not pay for the whole engine:

>>> from engine import Card, Seat, Contract, Trump, find_rules, load_record, judge
>>> rules = find_rules("ffb-coinche")
>>> judge(load_record({"rules": "ffb-coinche", "dealer": "E", "plays": [],
...                    "contract": {"taker": "N", "bid": 90, "trump": "H"}}))["score"] is None
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.annonces import Annonce, AnnonceError, Declared, annonce_of, best_annonces, resolve
    from engine.auction import AuctionError, BeloteAuction, Call, CoincheAuction, next_dealer
    from engine.cards import DECK, Card, CardError, Rank, Seat, Suit, Team, parse_cards
    from engine.contract import Contract, ContractError, Trump
    from engine.deal import Deal, IllegalPlay
    from engine.game import Game, GameError
    from engine.legality import illegal_reason, legal_cards
    from engine.observe import ObservedDeal, Violation, audit
    from engine.record import DealRecord, Record, RecordError, judge, load_record, read_record
    from engine.rules import PRESETS, RulesError, RuleSet, find_rules
    from engine.scoring import DealResult, ScoringError, score_deal, score_points
    from engine.sheet import score_sheet
    from engine.tricks import Trick, card_points, trick_winner

# What `from engine import name` loads, by module (the imports above, for the type checker).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "engine.annonces": (
        "Annonce", "AnnonceError", "Declared", "annonce_of", "best_annonces", "resolve"),
    "engine.auction": ("AuctionError", "BeloteAuction", "Call", "CoincheAuction", "next_dealer"),
    "engine.cards": ("DECK", "Card", "CardError", "Rank", "Seat", "Suit", "Team", "parse_cards"),
    "engine.contract": ("Contract", "ContractError", "Trump"),
    "engine.deal": ("Deal", "IllegalPlay"),
    "engine.game": ("Game", "GameError"),
    "engine.legality": ("illegal_reason", "legal_cards"),
    "engine.observe": ("ObservedDeal", "Violation", "audit"),
    "engine.record": ("DealRecord", "Record", "RecordError", "judge", "load_record", "read_record"),
    "engine.rules": ("PRESETS", "RulesError", "RuleSet", "find_rules"),
    "engine.scoring": ("DealResult", "ScoringError", "score_deal", "score_points"),
    "engine.sheet": ("score_sheet",),
    "engine.tricks": ("Trick", "card_points", "trick_winner"),
}
_LAZY = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [
    "DECK", "PRESETS", "Annonce", "AnnonceError", "AuctionError", "BeloteAuction", "Call",
    "Card", "CardError", "CoincheAuction", "Contract", "ContractError", "Deal", "DealRecord",
    "DealResult", "Declared", "Game", "GameError", "IllegalPlay", "ObservedDeal", "Rank",
    "Record", "RecordError", "RuleSet", "RulesError", "ScoringError", "Seat", "Suit", "Team",
    "Trick", "Trump", "Violation", "annonce_of", "audit", "best_annonces", "card_points",
    "find_rules", "illegal_reason", "judge", "legal_cards", "load_record", "next_dealer",
    "parse_cards", "read_record", "resolve", "score_deal", "score_points", "score_sheet",
    "trick_winner",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
