"""Checks the board records the CLI wrote (LIN or JSON Lines) without any third-party parser:
syntax, board numbers, dealer and vulnerability by the duplicate table, 52 distinct cards, the
JSON schema, and with --spades-seat the seat holding all thirteen spades (the `rotate` check).

Usage: check_records.py lin|jsonl|pbn FILE FIRST_BOARD [--no-title] [--summary]
       [--spades-at-dealer] [--dealer SEAT] [--values NAME,...]
Prints nothing and exits 0 when every record is right; otherwise prints the first fault, exit 1.
"""

import json
import re
import sys

# The duplicate table written out for boards 1..16 (dealer, vulnerability).
TABLE = [("N", "None"), ("E", "NS"), ("S", "EW"), ("W", "All"),
         ("N", "NS"), ("E", "EW"), ("S", "All"), ("W", "None"),
         ("N", "EW"), ("E", "All"), ("S", "None"), ("W", "NS"),
         ("N", "All"), ("E", "None"), ("S", "NS"), ("W", "EW")]
LIN_DIGIT = {"1": "S", "2": "W", "3": "N", "4": "E"}
LIN_VUL = {"o": "None", "n": "NS", "e": "EW", "b": "All"}
SEATS = "NESW"
RANKS = "AKQJT98765432"


def fail(message):
    print(message)
    sys.exit(1)


def check_hands(hands, where):
    """hands: seat letter -> PBN hand text. 13 cards each, 52 distinct, ranks in order."""
    cards = set()
    for seat, text in hands.items():
        suits = text.split(".")
        if len(suits) != 4:
            fail(f"{where}: {seat} hand '{text}' has not four suits")
        n = 0
        for suit, ranks in zip("SHDC", suits):
            if ranks != "".join(r for r in RANKS if r in ranks) or len(set(ranks)) != len(ranks):
                fail(f"{where}: {seat} {suit} '{ranks}' not in rank order")
            cards.update(suit + r for r in ranks)
            n += len(ranks)
        if n != 13:
            fail(f"{where}: {seat} holds {n} cards")
    if len(cards) != 52:
        fail(f"{where}: {len(cards)} distinct cards")


def lin_hand(text):
    """`S…H…D…C…` -> PBN hand text."""
    m = re.fullmatch(r"S([AKQJT2-9]*)H([AKQJT2-9]*)D([AKQJT2-9]*)C([AKQJT2-9]*)", text)
    if not m:
        fail(f"LIN hand '{text}' is not S…H…D…C…")
    return ".".join(m.groups())


def parse_lin(line, title):
    pattern = r"qx\|o(\d+)\|md\|([1-4])([^,|]*),([^,|]*),([^,|]*),([^,|]*)\|rh\|\|"
    pattern += r"ah\|Board (\d+)\|" if title else ""
    pattern += r"sv\|([oneb])\|pg\|\|"
    m = re.fullmatch(pattern, line)
    if not m:
        fail(f"not a LIN record: {line}")
    g = m.groups()
    board = int(g[0])
    if title and int(g[6]) != board:
        fail(f"ah|Board {g[6]}| in board {board}")
    hands = dict(zip("SWNE", (lin_hand(h) for h in g[2:6])))
    return board, LIN_DIGIT[g[1]], LIN_VUL[g[-1]], hands


def parse_json(line, values):
    record = json.loads(line)
    if record.get("schema") != 1 or record.get("type") != "deal":
        fail(f"schema or type: {line}")
    expected = {"schema", "type", "board", "dealer", "vulnerable", "deal", "hands", "values"}
    if set(record) != expected:
        fail(f"fields {sorted(record)}")
    hands = {}
    for seat, key in zip(SEATS, ("north", "east", "south", "west")):
        hand = record["hands"][key]
        if hand["pbn"] != ".".join(hand[s] for s in ("spades", "hearts", "diamonds", "clubs")):
            fail(f"board {record['board']}: {key} pbn and suits differ")
        hands[seat] = hand["pbn"]
    if record["deal"] != "N:" + " ".join(hands[s] for s in SEATS):
        fail(f"board {record['board']}: deal and hands differ")
    if list(record["values"]) != values or not all(isinstance(v, int) for v in record["values"].values()):
        fail(f"board {record['board']}: values {record['values']}, expected names {values}")
    return record["board"], record["dealer"], record["vulnerable"], hands


def parse_pbn(text):
    for block in text.strip().split("\n\n"):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        if "Deal" not in tags:
            continue  # the end-of-run statistics
        first, *rest = tags["Deal"].split(" ")
        if not first.startswith("N:"):
            fail(f"deal {tags['Deal']}")
        hands = dict(zip(SEATS, [first[2:]] + rest))
        yield int(tags["Board"]), tags["Dealer"], tags["Vulnerable"], hands


def main():
    kind, path, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
    flags = sys.argv[4:]
    title = "--no-title" not in flags
    values = []
    fixed_dealer = None
    if "--values" in flags:
        values = flags[flags.index("--values") + 1].split(",")
    if "--dealer" in flags:
        fixed_dealer = flags[flags.index("--dealer") + 1]
    text = open(path, encoding="utf-8").read()
    lines = text.splitlines()
    if kind == "jsonl" and "--summary" in flags:
        summary = json.loads(lines.pop())
        if summary.get("type") != "summary" or summary.get("schema") != 1:
            fail(f"last line is not the summary: {summary}")
        if set(summary) != {"schema", "type", "generated", "produced", "seed", "seconds"}:
            fail(f"summary fields {sorted(summary)}")
        if summary["produced"] != len(lines):
            fail(f"summary says {summary['produced']} produced, {len(lines)} records")
    if kind == "lin":
        records = [parse_lin(line, title) for line in lines]
    elif kind == "jsonl":
        records = [parse_json(line, values) for line in lines]
    else:
        records = list(parse_pbn(text))
    if not records:
        fail("no record")
    for i, (board, dealer, vul, hands) in enumerate(records):
        where = f"record {i + 1}"
        if board != first + i:
            fail(f"{where}: board {board}, expected {first + i}")
        want_dealer, want_vul = TABLE[(board - 1) % 16]
        if fixed_dealer:
            want_dealer = fixed_dealer
        if (dealer, vul) != (want_dealer, want_vul):
            fail(f"{where}: board {board} dealer {dealer} vulnerable {vul}, expected {want_dealer} {want_vul}")
        check_hands(hands, where)
        if "--spades-at-dealer" in flags and hands[dealer] != "AKQJT98765432...":
            fail(f"{where}: the dealer {dealer} holds {hands[dealer]}, not the thirteen spades")


main()
