"""Card pictures drawn as SVG by our own code, so the pages need nothing from the internet."""

from __future__ import annotations

from functools import cache

from device.web.i18n import RANKS, pick_lang

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_COLOUR = {"S": "#1b1b1f", "C": "#1b1b1f", "H": "#c8102e", "D": "#c8102e"}
# Pip layouts (x, y) on a 100 x 140 card for the number cards; faces get a framed letter.
_PIPS = {
    "7": [(37, 30), (63, 30), (50, 52), (37, 70), (63, 70), (37, 110), (63, 110)],
    "8": [(37, 30), (63, 30), (50, 50), (37, 70), (63, 70), (50, 90), (37, 110), (63, 110)],
    "9": [(37, 28), (63, 28), (37, 56), (63, 56), (50, 70), (37, 84), (63, 84), (37, 112),
          (63, 112)],
    "T": [(37, 28), (63, 28), (50, 42), (37, 56), (63, 56), (37, 84), (63, 84), (50, 98),
          (37, 112), (63, 112)],
}


@cache
def card_svg(card: str, lang: str = "fr") -> str:
    """The SVG picture of one card ('JH'), corner letters in the page's language."""
    rank, suit = card[:-1], card[-1]
    letter = RANKS[pick_lang(lang)][rank]
    colour, symbol = _COLOUR[suit], _SYMBOL[suit]
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">',
        f"<title>{letter}{symbol}</title>",
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fffdf7" stroke="#444" '
        'stroke-width="2"/>',
        f'<g fill="{colour}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700">',
        _corner(letter, symbol, 13, 24),
        f'<g transform="rotate(180 50 70)">{_corner(letter, symbol, 13, 24)}</g>',
    ]
    if rank in _PIPS:
        parts += [
            f'<text x="{x}" y="{y + 8}" font-size="20" text-anchor="middle"'
            f'{" transform=" + chr(34) + f"rotate(180 {x} {y})" + chr(34) if y > 70 else ""}>'
            f"{symbol}</text>"
            for x, y in _PIPS[rank]
        ]
    elif rank == "A":
        parts.append(f'<text x="50" y="88" font-size="56" text-anchor="middle">{symbol}</text>')
    else:
        parts += [
            f'<rect x="24" y="30" width="52" height="80" rx="5" fill="none" stroke="{colour}" '
            'stroke-width="2"/>',
            f'<text x="50" y="72" font-size="36" text-anchor="middle">{letter}</text>',
            f'<text x="50" y="100" font-size="24" text-anchor="middle">{symbol}</text>',
        ]
    parts.append("</g></svg>")
    return "".join(parts)


def _corner(letter: str, symbol: str, x: int, y: int) -> str:
    size = 17 if len(letter) > 1 else 20
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle">{letter}</text>'
            f'<text x="{x}" y="{y + 19}" font-size="17" text-anchor="middle">{symbol}</text>')


def back_svg() -> str:
    """The back of a card, for seats that have not played yet in the trick."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">'
        '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="10" height="10" fill="#234e8c"/>'
        '<rect width="5" height="10" fill="#2d62ad"/></pattern></defs>'
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="url(#p)" stroke="#fff" '
        'stroke-width="4"/></svg>'
    )
