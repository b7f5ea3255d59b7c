"""Rule sets as frozen data: every knob of docs/rules.md §2, six named presets, overrides by name.

>>> find_rules("ffb-coinche").undertrump
'optional'
>>> find_rules({"preset": "ffb-coinche", "target": 2000}).target
2000
>>> find_rules("belote-501").clockwise
False
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.contract import ContractError, Trump


class RulesError(ValueError):
    """An unknown preset, an unknown knob, or a knob value the engine does not know."""


def _knob(default: Any, doc: str, choices: tuple[Any, ...] | None = None) -> Any:
    """A rule-set field with its documentation (sources per value) and allowed values."""
    return field(default=default, metadata={"doc": doc, "choices": choices})


_ALL_MODES = (Trump.SPADES, Trump.HEARTS, Trump.DIAMONDS, Trump.CLUBS, Trump.NO_TRUMP,
              Trump.ALL_TRUMP)
_SUIT_MODES = _ALL_MODES[:4]
_TA_POINTS = re.compile(r"^J:?(\d+)-9:?(\d+)-A:?(\d+)-T:?(\d+)-K:?(\d+)-Q:?(\d+)$")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The knobs of one rule set. A preset is one value of this class; see `PRESETS`."""

    name: str = _knob("custom", "Preset this rule set came from (overrides keep the name).")

    # --- Play -----------------------------------------------------------------------------
    direction: str = _knob(
        "counterclockwise",
        "Order of play. counterclockwise: FFB, CoinchePassion (002), 004, FunBelote; "
        "clockwise: GameDuell (003), 'Ma première belote' (000).",
        ("counterclockwise", "clockwise"))
    undertrump: str = _knob(
        "optional",
        "An opponent trumped, you cannot beat it and are void in the suit led. required: you must "
        "still play a lower trump if you hold one (CoinchePassion 002, 004); optional: you may "
        "discard (FFB 'on ne pisse pas').",
        ("required", "optional"))
    trump_led_overtrump_partner: bool = _knob(
        True,
        "Trump led and your partner holds the trick: true: you must still go higher if you can "
        "(FFB, 004); false: free to play any trump (FunBelote 'sauf ... équipier maître').")
    overtrump_partner_on_cut: bool = _knob(
        False,
        "Partner holds the trick with a trump, you are void in the suit led and play a trump: "
        "true: you must beat it if you can (004, GameDuell 003); false: free (FFB rule 4).")

    # --- Contracts and auction --------------------------------------------------------------
    auction: str = _knob(
        "coinche",
        "coinche: numeric bids (FFB, 001, 004, FunBelote, GameDuell); belote: turned card and two "
        "rounds of take/pass (CoinchePassion 002, belote-501 in 000).",
        ("coinche", "belote"))
    bid_min: int = _knob(80, "Lowest bid (all coinche sources: 80).")
    bid_step: int = _knob(10, "Bids go up by this step (all coinche sources: 10).")
    bid_max: int = _knob(160, "Highest numeric bid (all coinche sources: 160).")
    capot_bid: int | None = _knob(
        250, "Value of a capot bid (all 8 tricks): 250 (FFB, 004, FunBelote); 260 (GameDuell); "
        "None where no capot bid exists (belote prise).")
    generale_bid: int | None = _knob(
        None, "Value of a générale bid (one player takes all 8 tricks): 500 (GameDuell); None "
        "elsewhere.")
    trump_modes: tuple[Trump, ...] = _knob(
        _ALL_MODES,
        "Trump modes a contract may name: suits only (GameDuell, CoinchePassion, belote-501) or "
        "suits + SA + TA (FFB optional, FunBelote, 004). Give as a list of 'S H D C SA TA'.")
    coinche_multiplier: int = _knob(2, "Score multiplier of a coinched (contré) deal (all: 2).")
    surcoinche_multiplier: int = _knob(4, "Multiplier of a surcoinched (surcontré) deal (all: 4).")
    tout_atout_points: str = _knob(
        "J13-9:9-A6-T5-K3-Q2",
        "Card points at tout-atout, J-9-A-T-K-Q (7 and 8 score 0): J13-9:9-A6-T5-K3-Q2 (FFB, "
        "FunBelote) | J14-9:9-A6-T5-K3-Q1 (004). Both total 162 with the last trick. Sans-atout "
        "always uses A19 T10 K4 Q3 J2 (all sources).")

    # --- Annonces -------------------------------------------------------------------------
    annonces: bool = _knob(
        True,
        "Sequences and carrés count: true (FFB coinche, 004, belote-501); false: only "
        "belote-rebelote (CoinchePassion, FunBelote contrée, GameDuell).")
    carre_nines_at_sa: bool = _knob(
        True, "A carré of nines at sans-atout is worth 100: true (FFB) | false, none (004).")
    belote_in_ta: bool = _knob(
        True, "At tout-atout each suit's K+Q gives a belote (up to 80): true (FFB, 004, "
        "FunBelote); none at SA whatever this says.")
    belote_requires_declaration: bool = _knob(
        False,
        "Belote-rebelote scores only when the player says it: true (a record lists it in "
        "'belote'); false: recognised from the plays (the same player played trump K and Q), "
        "the default of every preset since a camera cannot hear.")
    false_announce: str = _knob(
        "to-opponents",
        "A declared annonce the player cannot show: to-opponents: the opponents score its "
        "points (FFB 'renonce'); void: it simply does not count (sources that say nothing).",
        ("to-opponents", "void"))

    # --- Scoring --------------------------------------------------------------------------
    rounding: str = _knob(
        "nearest10",
        "Rounding of card points: nearest10 (85→90, 84→80: FFB, FunBelote, 004, CoinchePassion) "
        "| none (GameDuell, whose failed_base 162 implies raw points; belote-501). Never helps "
        "make a contract (89 for 90 fails).",
        ("nearest10", "none"))
    contract_rule: str = _knob(
        "ffb",
        "What the takers need. ffb: total incl. belote and annonces ≥ bid AND > defence (FFB; "
        "GameDuell 003 'son contrat de 82 points', 'en cas de litige l'équipe qui a pris perd "
        "ses points'); card82-and-bid (004): card points ≥ 82 AND cards + annonces + belote ≥ "
        "bid; bid-only (FunBelote 'supérieur ou égal au contrat'): ≥ bid; belote82 "
        "(CoinchePassion, belote-501): ≥ 82 incl. belote AND more than the defence.",
        ("ffb", "card82-and-bid", "bid-only", "belote82"))
    scoring_mode: str = _knob(
        "made+bid",
        "Made contract. made+bid: takers score their points + the bid, defence its points "
        "(FFB, 004, GameDuell, FunBelote default); made: takers their points (FunBelote option, "
        "belote prise presets); bid: takers the bid only, defence 0 (FunBelote option).",
        ("made+bid", "made", "bid"))
    coinched_scoring: str = _knob(
        "multiply-all",
        "Coinched deal. multiply-all: the winner scores (failed_base or capot value + bid + "
        "annonces) x multiplier, the loser nothing but its belote (FFB, 004); multiply-bid: the "
        "winner scores its usual points with only the bid x multiplier (FunBelote 160 + bid x 2, "
        "GameDuell points + 2 x bid).",
        ("multiply-all", "multiply-bid"))
    coinched_made_base: str = _knob(
        "points",
        "Under coinched_scoring=multiply-bid, what made takers score besides bid x multiplier: "
        "points: their own card points (GameDuell 003 'les points qu'elle a réalisée, plus deux "
        "fois son contrat'); failed_base: failed_base, 250 after a capot (FunBelote in 000 'il "
        "marque 160 points + les points demandés x 2').",
        ("points", "failed_base"))
    belote_multiplied: bool = _knob(
        True, "Belote inside the coinche multiplier: true (FFB) | false, kept unmultiplied (004, "
        "FunBelote, GameDuell).")
    failed_base: int = _knob(
        160, "Points the defence scores for a failed contract: 160 (FFB, FunBelote, 004, "
        "CoinchePassion) | 162 (GameDuell 003 'l'équipe adverse marque 162 points'; belote-501 "
        "in 000 'tous ses points iront au binôme adverse', with rounding none).")
    belote_on_failure: str = _knob(
        "kept",
        "Belote of failed takers: kept ('imprenable': FFB, CoinchePassion, 004, belote-501) | "
        "to_defence (FunBelote).",
        ("kept", "to_defence"))
    capot: str = _knob(
        "ffb",
        "All 8 tricks to one team. ffb: dix de der becomes 100, 252 in cards (FFB; GameDuell "
        "003 'en cas de capot ... le dernier pli vaut alors 100 points'); flat250: 250 replaces "
        "the card count (CoinchePassion, 004, FunBelote); plus90: +90 on the last trick, 100 in "
        "all (belote-501). ffb and plus90 score alike; they differ in the sources only.",
        ("ffb", "flat250", "plus90"))
    capot_takes_annonces: bool = _knob(
        True, "When the takers make a capot the defenders' annonces change hands: true (FFB) | "
        "false (others).")
    generale_last_trick: int | None = _knob(
        None, "Value of the last trick in a made générale: 350 (GameDuell); None elsewhere.")
    litige: str = _knob(
        "failed",
        "Takers and defence tie (81-81). failed: the defence needs only ≥ (FFB and most); "
        "reserve: the takers' points are held for the winner of the next deal (belote-501).",
        ("failed", "reserve"))

    # --- Game -----------------------------------------------------------------------------
    target: int = _knob(
        1501, "Game target: 1501 (FFB coinche page in 001), 1000 (004, FunBelote, GameDuell), "
        "501 (belote-501); CoinchePassion chooses per game (1000 here, override it).")
    no_end_on_belote: bool = _knob(
        False, "A team that reaches the target only through the 20 belote points of a failed or "
        "capot deal has not won yet: true (CoinchePassion, FFB) | false.")
    game_end: str = _knob(
        "target",
        "target: the first team at or above the target wins; both → higher score; exact tie → "
        "one more deal (FFB, FunBelote, GameDuell, CoinchePassion, belote-501). "
        "after-deal-highest (004): the game ends after the deal where a team reaches the "
        "target; highest wins; tie → the team that won that deal.",
        ("target", "after-deal-highest"))

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if choices is not None and value not in choices:
                raise RulesError(f"knob {f.name!r}: unknown value {value!r}, expected one of "
                                 f"{', '.join(map(str, choices))}")
        if not (0 < self.bid_min <= self.bid_max and self.bid_step > 0):
            raise RulesError(f"bids: need 0 < bid_min <= bid_max and bid_step > 0, got "
                             f"{self.bid_min}/{self.bid_step}/{self.bid_max}")
        if not self.trump_modes or len(set(self.trump_modes)) != len(self.trump_modes):
            raise RulesError(f"knob 'trump_modes': need distinct modes, got {self.trump_modes!r}")
        if self.target <= 0:
            raise RulesError(f"knob 'target': must be positive, got {self.target}")
        ta_points(self.tout_atout_points)

    @property
    def clockwise(self) -> bool:
        """Whether play (and the deal) turns clockwise: N → E → S → W."""
        return self.direction == "clockwise"

    def with_overrides(self, **knobs: object) -> RuleSet:
        """A copy with some knobs changed, validated like `find_rules`."""
        return _override(self, knobs)

    def overrides(self) -> dict[str, object]:
        """The knobs (as JSON values) that differ from the preset this rule set is named after."""
        base = PRESETS.get(self.name, RuleSet())
        mine, theirs = self.to_json(), base.to_json()
        return {k: v for k, v in mine.items() if k != "name" and v != theirs[k]}

    def to_json(self) -> dict[str, object]:
        """Every knob as plain JSON values."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = [str(m) for m in v] if f.name == "trump_modes" else v
        return out


def ta_points(spec: str) -> tuple[int, int, int, int, int, int]:
    """Parse a tout_atout_points spec into J, 9, A, T, K, Q points, checking they total 152."""
    m = _TA_POINTS.match(spec.replace(" ", ""))
    if m is None:
        raise RulesError(f"knob 'tout_atout_points': cannot read {spec!r}, expected a form like "
                         "'J13-9:9-A6-T5-K3-Q2'")
    j, n, a, t, k, q = (int(g) for g in m.groups())
    if 4 * (j + n + a + t + k + q) != 152:
        raise RulesError(f"knob 'tout_atout_points': {spec!r} does not total 162 with the last "
                         "trick")
    return (j, n, a, t, k, q)


KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "name")
_TYPES: dict[str, type] = {"bool": bool, "int": int, "str": str}


def knob_doc(knob: str) -> str:
    """The documentation of one knob (values and the sources that use them)."""
    for f in dataclasses.fields(RuleSet):
        if f.name == knob:
            return str(f.metadata["doc"])
    raise RulesError(f"unknown knob {knob!r}")


def _coerce(name: str, value: object) -> object:
    """Check (and convert from JSON) one knob value."""
    f = next(f for f in dataclasses.fields(RuleSet) if f.name == name)
    kind = str(f.type)
    if name == "trump_modes":
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise RulesError(f"knob 'trump_modes': expected a list such as ['S','H','D','C'], got "
                             f"{value!r}")
        try:
            return tuple(m if isinstance(m, Trump) else Trump.from_str(str(m)) for m in value)
        except ContractError as exc:
            raise RulesError(f"knob 'trump_modes': {exc}") from None
    optional = kind.endswith("| None")
    if optional and value is None:
        return None
    base = _TYPES[kind.split(" ")[0]]
    # bool is an int subclass: refuse True for an int knob and 1 for a bool knob.
    if not isinstance(value, base) or (base is int and isinstance(value, bool)):
        raise RulesError(f"knob {name!r}: expected {kind}, got {value!r}")
    return value


def _suggest(name: str, known: Iterable[str], what: str) -> str:
    """'did you mean ...?' for a near miss, else the whole list."""
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"did you mean {close[0]!r}?" if close else f"{what} are: {', '.join(known)}"


def _override(base: RuleSet, knobs: Mapping[str, object]) -> RuleSet:
    changes: dict[str, Any] = {}
    for name, value in knobs.items():
        if name not in KNOBS:
            raise RulesError(f"unknown knob {name!r}; {_suggest(name, KNOBS, 'knobs')}")
        changes[name] = _coerce(name, value)
    return dataclasses.replace(base, **changes)


def _preset(name: str, **knobs: object) -> RuleSet:
    return _override(RuleSet(name=name), knobs)


# The six presets of docs/rules.md §5, as data. Knobs not named keep the RuleSet default (FFB).
PRESETS: dict[str, RuleSet] = {
    p.name: p
    for p in (
        _preset("ffb-coinche", no_end_on_belote=True),
        _preset(
            "funbelote-contree", trump_led_overtrump_partner=False, annonces=False,
            belote_on_failure="to_defence", contract_rule="bid-only",
            coinched_scoring="multiply-bid", coinched_made_base="failed_base",
            belote_multiplied=False, capot="flat250", capot_takes_annonces=False, target=1000),
        _preset(
            "gameduell-contree", direction="clockwise", overtrump_partner_on_cut=True,
            trump_modes=list(_SUIT_MODES), capot_bid=260, generale_bid=500, annonces=False,
            rounding="none", coinched_scoring="multiply-bid",
            belote_multiplied=False, failed_base=162, capot="ffb", capot_takes_annonces=False,
            generale_last_trick=350, target=1000),
        _preset(
            "coinche-1000", undertrump="required", overtrump_partner_on_cut=True,
            tout_atout_points="J14-9:9-A6-T5-K3-Q1", carre_nines_at_sa=False,
            contract_rule="card82-and-bid", belote_multiplied=False, capot="flat250",
            capot_takes_annonces=False, target=1000, game_end="after-deal-highest"),
        _preset(
            "coinchepassion-belote", undertrump="required", auction="belote", capot_bid=None,
            trump_modes=list(_SUIT_MODES), annonces=False, contract_rule="belote82",
            scoring_mode="made", capot="flat250", capot_takes_annonces=False, target=1000,
            no_end_on_belote=True),
        _preset(
            "belote-501", auction="belote", capot_bid=None, trump_modes=list(_SUIT_MODES),
            rounding="none", contract_rule="belote82", scoring_mode="made", failed_base=162,
            capot="plus90", capot_takes_annonces=False, litige="reserve", target=501),
    )
}


def find_rules(spec: str | Mapping[str, object] | RuleSet) -> RuleSet:
    """A preset by name, or `{"preset": name, knob: value, ...}`; RulesError names what is bad."""
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, str):
        name, knobs = spec, {}
    elif isinstance(spec, Mapping):
        if "preset" not in spec:
            raise RulesError(f"rules object needs a 'preset' field, got keys {sorted(spec)}")
        preset = spec["preset"]
        if not isinstance(preset, str):
            raise RulesError(f"rules 'preset' must be a name, got {preset!r}")
        name, knobs = preset, {k: v for k, v in spec.items() if k != "preset"}
    else:
        raise RulesError(f"rules must be a preset name or an object, got {spec!r}")
    key = name.strip().lower()
    if key not in PRESETS:
        raise RulesError(f"unknown preset {name!r}; {_suggest(key, PRESETS, 'presets')}")
    return _override(PRESETS[key], knobs) if knobs else PRESETS[key]
