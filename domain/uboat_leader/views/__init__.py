"""What the commander reads: the campaign sheet, every U-boat's log, the Tactical Display and the decks.

Each view is a msgspec Struct (its JSON Schema is the view's schema). All are public (solitaire, and nothing is
hidden: a deck has no order until a card is drawn) and read only running totals kept by evolve, never the log.
"""

from __future__ import annotations

from domain.engine import View
from domain.uboat_leader.views.decks import Decks, decks_view
from domain.uboat_leader.views.digest import digest
from domain.uboat_leader.views.display import TacticalDisplay, tactical_display
from domain.uboat_leader.views.log import UBoatLog, uboat_log
from domain.uboat_leader.views.sheet import CampaignSheet, campaign_sheet

VIEWS = {
    "campaign-sheet": View(
        campaign_sheet,
        CampaignSheet,
        description="turn, SO, options, VP against the sheet's "
        "levels, every boat, the map's Areas and counters, one line per turn, deck counts",
    ),
    "uboat-log": View(
        uboat_log,
        UBoatLog,
        description="every U-boat's log, keyed by boat: card rows, stress, XP, "
        "torpedoes by kind, Ammo, patrols, kills and its history",
    ),
    "tactical-display": View(
        tactical_display,
        TacticalDisplay,
        description="the contact in hand: the Convoy card, "
        "ships and U-boats by area, Alerted, the Reference Ship, ranges and detection numbers",
    ),
    "decks": View(decks_view, Decks, description="per deck: cards left, cards in play, the discards"),
}

__all__ = ["VIEWS", "digest"]
