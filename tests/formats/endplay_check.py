"""The independent check of our board records: endplay (PyPI), a bridge library with its own LIN
and PBN parsers, reads the LIN and PBN files the CLI wrote, and every board's hands, dealer and
vulnerability (and board number) must equal ours, taken from the JSON Lines of the same run.

endplay's file-level LIN reader (endplay.parsers.lin.loads in 0.5.x) splits records at `pn|`
(the player names BBO's downloaded hand records begin with); practice-set LIN as BBO imports it
(`qx|oN|md|…`, as Practice-Bidding-Scenarios publishes) has no player names, so each line is given
to endplay's record parser, LINDecoder.parse_line.

Usage: endplay_check.py OURS.jsonl THEIRS.lin THEIRS.pbn
Prints what it compared; exits 1 on the first difference.
"""

import json
import sys

from endplay.parsers import lin, pbn
from endplay.types import Player, Vul

SEAT = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
KEYS = {Player.north: "north", Player.east: "east", Player.south: "south", Player.west: "west"}


def hands_of(deal):
    """endplay's deal as PBN hand texts by our seat keys (endplay prints hands as S.H.D.C)."""
    return {KEYS[p]: deal[p].to_pbn() for p in Player}


def compare(kind, ours, theirs):
    if len(ours) != len(theirs):
        print(f"{kind}: endplay read {len(theirs)} boards, we wrote {len(ours)}")
        sys.exit(1)
    for mine, board in zip(ours, theirs):
        want = {
            "board": mine["board"],
            "dealer": SEAT[mine["dealer"]],
            "vul": VUL[mine["vulnerable"]],
            "hands": {k: v["pbn"] for k, v in mine["hands"].items()},
        }
        got = {"board": board.board_num, "dealer": board.dealer, "vul": board.vul, "hands": hands_of(board.deal)}
        if got != want:
            print(f"{kind}: board {mine['board']} differs\n  ours:    {want}\n  endplay: {got}")
            sys.exit(1)
    print(f"{kind}: endplay read {len(theirs)} boards; hands, dealer, vulnerability and number equal ours")


def main():
    ours_path, lin_path, pbn_path = sys.argv[1:4]
    with open(ours_path, encoding="utf-8") as f:
        ours = [json.loads(line) for line in f]
    decoder = lin.LINDecoder()
    with open(lin_path, encoding="utf-8") as f:
        lin_boards = [decoder.parse_line(line.rstrip("\n")) for line in f if line.strip()]
    with open(pbn_path, encoding="utf-8") as f:
        pbn_boards = pbn.load(f)
    compare("LIN", ours, lin_boards)
    compare("PBN", ours, pbn_boards)


main()
