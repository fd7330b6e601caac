#!/usr/bin/env python3
"""The independent check of a `leads` table: endplay (PyPI) plays each card the leader may lead
on each deal and solves the position after it (one double-dummy solve per card, DDS's search
from North's or East's turn to play, not the all-cards search at the opening lead that libdealer
makes); the mean tricks and the share of deals beaten per lead, summed here from those solves,
must equal the JSON summary's `leads` table of the same run.

Usage: leads_check.py RUN_OUTPUT LEADER STRAIN NEEDED
RUN_OUTPUT holds the run's `printoneline` deals (`n ... e ... s ... w ...`) and its JSON summary
line. Exit status 1 when a lead differs.
"""

import json
import sys

from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Card, Deal, Denom, Player, Rank

SEATS = {"n": Player.north, "e": Player.east, "s": Player.south, "w": Player.west}
STRAINS = {"clubs": Denom.clubs, "diamonds": Denom.diamonds, "hearts": Denom.hearts, "spades": Denom.spades,
           "notrump": Denom.nt}


def deal_of(line: str) -> Deal:
    """A printoneline deal (`n AKQ.J.T98.765 e ...`) as endplay's."""
    words = line.split()
    hands = {SEATS[words[i]]: words[i + 1] for i in range(0, 8, 2)}
    pbn = "N:" + " ".join(hands[p] for p in (Player.north, Player.east, Player.south, Player.west))
    return Deal(pbn)


def main() -> int:
    path, leader_name, strain_name, needed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    leader = SEATS[leader_name[0]]
    deals, summary = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith('{"schema"') and '"type":"summary"' in line:
                summary = json.loads(line)
            elif line[:2] in ("n ", "e ", "s ", "w "):
                deals.append(deal_of(line))
    if summary is None or len(summary.get("leads", [])) != 1:
        print("no JSON summary with one leads table")
        return 1
    table = summary["leads"][0]
    if table["deals"] != len(deals):
        print(f"the table counts {table['deals']} deals, the run printed {len(deals)}")
        return 1
    # Every card of the leader, by name (`SK`, `D9`): the defence's tricks on each deal.
    per_card = {}
    for deal in deals:
        deal.trump = STRAINS[strain_name]
        for card in list(deal[leader]):
            position = deal.copy()
            position.first = leader
            position.play(card)
            # The declarer's side is to play: its best score is declarer's tricks from here on.
            best = max(tricks for _, tricks in solve_board(position, SolveMode.OptimalOne))
            name = "SHDC"[card.suit.value] + card.rank.abbr
            per_card.setdefault(name, []).append(13 - best)
    failures = 0
    for lead in table["leads"]:
        suit = lead["cards"][0]
        for rank in lead["cards"][1:]:
            counts = per_card.pop(suit + rank, None)
            if counts is None:
                print(f"{suit}{rank}: not a card of the leader")
                failures += 1
                continue
            mean = sum(counts) / len(counts)
            beaten = sum(1 for c in counts if c >= 14 - needed) / len(counts)
            if abs(mean - lead["tricks"]) > 1e-9 or abs(beaten - lead["beaten"]) > 1e-9:
                print(f"{suit}{rank}: endplay {mean:.4f} tricks, {beaten:.4f} beaten; "
                      f"libdealer {lead['tricks']:.4f}, {lead['beaten']:.4f}")
                failures += 1
    if per_card:
        print(f"cards of the leader missing from the table: {sorted(per_card)}")
        failures += 1
    print(f"{len(deals)} deals, {len(table['leads'])} leads: "
          f"{'all equal endplay' if failures == 0 else f'{failures} differ'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
