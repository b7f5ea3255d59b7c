"""The rules engine: cards, rule sets, auctions, play and legality, judging from plays, scoring.

Pure standard library. The public names, by module:

>>> from engine import Card, Seat, Contract, Trump, find_rules, load_record, judge
>>> rules = find_rules("ffb-coinche")
>>> judge(load_record({"rules": "ffb-coinche", "dealer": "E", "plays": [],
...                    "contract": {"taker": "N", "bid": 90, "trump": "H"}}))["score"] is None
True
"""

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
