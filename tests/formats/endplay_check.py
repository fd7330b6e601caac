"""The independent check of our board records: endplay (PyPI), a bridge library with its own LIN
and PBN parsers, reads the LIN and PBN files the CLI wrote, and every board's hands, dealer and
vulnerability (and board number) must equal ours, taken from the JSON Lines of the same run.

endplay's file-level LIN reader (endplay.parsers.lin.loads in 0.5.x) splits records at `pn|`
(the player names BBO's downloaded hand records begin with); practice-set LIN as BBO imports it
(`qx|oN|md|…`, as Practice-Bidding-Scenarios publishes) has no player names, so each line is given
to endplay's record parser, LINDecoder.parse_line.

endplay 0.5's PBN reader keeps the `[Dealer]` tag only for a board with a contract; otherwise
its board's dealer is the board number's (N, E, S, W by turns). Practice records carry
`[Contract "?"]`, so where the dealer is a scenario's own (`dealer west` in a mixed set, no
rotation) the PBN dealer is read from the `[Dealer]` tag of the record text instead.

A board of a mixed set (`--mix`) names its scenario: our JSON's `"scenario"` must be the PBN
`[Event]` endplay reads and the LIN record's `st|…|` (BBO's small heading, which endplay skips).

Usage: endplay_check.py OURS.jsonl THEIRS.lin THEIRS.pbn
Prints what it compared; exits 1 on the first difference.
"""

import json
import re
import sys

from endplay.parsers import lin, pbn
from endplay.types import Player, Vul

SEAT = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
KEYS = {Player.north: "north", Player.east: "east", Player.south: "south", Player.west: "west"}


def hands_of(deal):
    """endplay's deal as PBN hand texts by our seat keys (endplay prints hands as S.H.D.C)."""
    return {KEYS[p]: deal[p].to_pbn() for p in Player}


def compare(kind, ours, theirs, sources, dealer=lambda board: board.dealer):
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
        got = {"board": board.board_num, "dealer": dealer(board), "vul": board.vul, "hands": hands_of(board.deal)}
        if "scenario" in mine:
            want["scenario"] = mine["scenario"]
            got["scenario"] = sources(board)
        if got != want:
            print(f"{kind}: board {mine['board']} differs\n  ours:    {want}\n  endplay: {got}")
            sys.exit(1)
    named = " and scenario" if ours and "scenario" in ours[0] else ""
    print(f"{kind}: endplay read {len(theirs)} boards; hands, dealer, vulnerability{named} and number equal ours")


def main():
    ours_path, lin_path, pbn_path = sys.argv[1:4]
    with open(ours_path, encoding="utf-8") as f:
        ours = [json.loads(line) for line in f]
    decoder = lin.LINDecoder()
    with open(lin_path, encoding="utf-8") as f:
        lin_lines = [line.rstrip("\n") for line in f if line.strip()]
    lin_boards = [decoder.parse_line(line) for line in lin_lines]
    lin_titles = {}
    for line in lin_lines:
        heading = re.search(r"(?:^|\|)st\|([^|]*)\|", line)
        lin_titles[int(re.search(r"ah\|Board (\d+)\|", line).group(1))] = heading and heading.group(1)
    with open(pbn_path, encoding="utf-8") as f:
        pbn_text = f.read()
    pbn_boards = pbn.loads(pbn_text)
    dealer_tags = [SEAT[d] for d in re.findall(r'^\[Dealer "([NESW])"\]$', pbn_text, re.M)]
    dealers = {board.board_num: tag for board, tag in zip(pbn_boards, dealer_tags)}
    compare("LIN", ours, lin_boards, lambda board: lin_titles.get(board.board_num))
    compare("PBN", ours, pbn_boards, lambda board: board.info.get("Event"), lambda board: dealers.get(board.board_num))


main()
