#!/usr/bin/env python3
"""The independent check of reading deals (`--input`): files written by another program, endplay
(PyPI), read by our CLI, and our records of them read back by endplay.

1. endplay's boards: 200 deals shuffled here with a fixed seed (and a few extreme ones: a hand of
   one suit, four one-suited hands), each with a board number (1 to 120 in turns, then numbers up
   to 999 that repeat and skip), a dealer and a vulnerability drawn independently of the number
   (so nothing can be derived from it), and for some boards player names (some seats only, a name
   with a space, one with a non-ASCII letter) and an `[Event]`/`[Site]`. endplay writes them with
   its own PBN writer (endplay.parsers.pbn.dumps) and its own LIN writer (lin.dumps).
2. Our CLI reads each file (`--input=FILE`, the format found from the bytes; once more with
   `--input-format` named and from standard input) with `action printjson` and
   `--format=jsonl --json-summary`: every deal, board number, dealer and vulnerability, and the
   player names (PBN and LIN) and event (PBN) must be what endplay wrote; the summary must count
   200 records read and none skipped.
3. The reverse: our `--format=pbn` and `--format=lin` records of each input, read by endplay,
   must equal endplay's originals (deal, number, dealer, vulnerability, names; the event in
   PBN). endplay 0.5's PBN reader keeps `[Dealer]` only for a board with a contract, so the PBN
   dealer is read from the record text, as endplay_check.py does; LIN is read line by line with
   LINDecoder.parse_line (endplay's file reader splits records at `pn|`, which our LIN writes only
   for boards with names).
4. Double dummy: endplay solves 8 of the boards (endplay.dds.calc_dd_table, DDS bundled with
   endplay) and writes them as PBN 2.1 `OptimumResultTable` sections (`Declarer;Denomination\\2R;
   Result\\2R`, through endplay's own table writer: a `…Table` entry of board.info). Our script's
   20 `dds(seat, strain)` values (`printjson(…)` with `--json-summary`; not `--format=jsonl`,
   which stands in for the script's actions) and `--json-dd`'s `"dd"` must be those tables, with no table
   solved (summary `"dd"` `"tables":0`, `"input"` `"dd_read":8`); `--verify-dd=2` solves the
   first 2 and agrees.

Usage: input_check.py CLI   (writes its files in the current folder)
Prints what it compared; exits 1 when anything differs (after trying every part).
"""

import json
import random
import re
import subprocess
import sys

from endplay.dds import calc_dd_table
from endplay.parsers import lin, pbn
from endplay.types import Board, Card, Deal, Denom, Player, Rank, Vul

BOARDS = 200
DD_BOARDS = 8
SEAT_LETTER = {Player.north: "N", Player.east: "E", Player.south: "S", Player.west: "W"}
SEAT_KEY = {Player.north: "north", Player.east: "east", Player.south: "south", Player.west: "west"}
VUL_NAME = {Vul.none: "None", Vul.ns: "NS", Vul.ew: "EW", Vul.both: "All"}
SUITS = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs]
RANKS = [Rank.R2, Rank.R3, Rank.R4, Rank.R5, Rank.R6, Rank.R7, Rank.R8, Rank.R9, Rank.RT, Rank.RJ, Rank.RQ, Rank.RK,
         Rank.RA]
SEATS = [Player.north, Player.east, Player.south, Player.west]
NAME_TAGS = ["North", "East", "South", "West"]
NAMES = ["Ann", "Bob Smith", "Zia", "O'Rourke", "Lee-Chang", "Zoë", "Helness", "M. Rosenberg"]
STRAINS = [("NT", Denom.nt, "notrump"), ("S", Denom.spades, "spades"), ("H", Denom.hearts, "hearts"),
           ("D", Denom.diamonds, "diamonds"), ("C", Denom.clubs, "clubs")]

cli = sys.argv[1]
failures = []


def report(ok, what, detail=""):
    if ok:
        print(f"ok: {what}")
    else:
        failures.append(what)
        print(f"DIFFERS: {what}" + (f"\n  {detail}" if detail else ""))


def deal_of(hands):
    """An endplay Deal from four lists of card numbers (0..51: suit * 13 + rank), N E S W."""
    deal = Deal()
    for seat, cards in zip(SEATS, hands):
        for c in cards:
            deal[seat].add(Card(suit=SUITS[c // 13], rank=RANKS[c % 13]))
    return deal


def make_boards():
    rng = random.Random(54)
    boards = []
    for i in range(BOARDS):
        if i == 7:  # North holds all 13 spades; East all hearts; South all diamonds; West all clubs
            hands = [list(range(s * 13, s * 13 + 13)) for s in range(4)]
        elif i == 8:  # West holds every spade; the rest shuffled
            rest = list(range(13, 52))
            rng.shuffle(rest)
            hands = [rest[0:13], rest[13:26], rest[26:39], list(range(13))]
        else:
            cards = list(range(52))
            rng.shuffle(cards)
            hands = [cards[k * 13:(k + 1) * 13] for k in range(4)]
        number = i + 1 if i < 120 else rng.randint(1, 999)
        board = Board(deal_of(hands), board_num=number, dealer=rng.choice(SEATS), vul=rng.choice(list(VUL_NAME)))
        if i % 3 == 1:
            for tag in NAME_TAGS:
                if tag == "East" and i % 2:
                    continue  # some seats left unnamed
                board.info[tag] = rng.choice(NAMES)
        if i % 5 == 2:
            board.info["Event"] = f"Club night {i // 5}"
            board.info["Site"] = "Oslo"
        boards.append(board)
    return boards


def norm(value):
    """A tag value with the writers' "no value" marks (`?`, `-`, empty) as None."""
    return None if value in (None, "", "?", "-") else value


def expected(board, tags):
    return {
        "deal": board.deal.to_pbn(),
        "board": board.board_num,
        "dealer": SEAT_LETTER[board.dealer],
        "vul": VUL_NAME[board.vul],
        "tags": {t: norm(board.info.get(t)) for t in tags},
    }


def run(args, stdin=None):
    done = subprocess.run([cli, *args], input=stdin, capture_output=True, text=True, encoding="utf-8")
    if done.returncode != 0:
        raise RuntimeError(f"dealer {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def read_ours(what, args, originals, tags, stdin=None):
    """Our JSON Lines of an input against endplay's boards; returns nothing, reports."""
    try:
        out = run(["--format=jsonl", "--json-summary", *args, "read.dl"], stdin)
    except RuntimeError as e:
        report(False, what, str(e))
        return
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    records = [r for r in lines if r.get("type") == "deal"]
    summary = [r for r in lines if r.get("type") == "summary"]
    if len(records) != len(originals):
        report(False, what, f"{len(records)} records, endplay wrote {len(originals)}")
        return
    differ = []
    for mine, board in zip(records, originals):
        want = expected(board, tags)
        got = {
            "deal": mine["deal"],
            "board": mine.get("board"),
            "dealer": mine.get("dealer"),
            "vul": mine.get("vulnerable"),
            "tags": {t: norm(mine.get("tags", {}).get(t)) for t in tags},
        }
        if got != want:
            differ.append((want, got))
    input_ = summary[0].get("input", {}) if summary else {}
    counts_ok = (input_.get("records_read"), input_.get("malformed_skipped"), input_.get("off_predeal_skipped")) == (
        len(originals), 0, 0)
    detail = ""
    if differ:
        want, got = differ[0]
        parts = [k for k in want if want[k] != got[k]]
        detail = (f"{len(differ)} of {len(originals)} records differ ({', '.join(parts)} in the first); first: "
                  f"board {want['board']}\n    endplay wrote: {want}\n    we read:       {got}")
    elif not counts_ok:
        detail = f"summary input: {input_}"
    report(not differ and counts_ok,
           f"{what}: {len(originals)} records; deal, board, dealer, vulnerability and {'/'.join(tags)} as endplay wrote",
           detail)


def board_dealers(text):
    """The `[Dealer]` tag of each PBN record, by board, in order."""
    return [m for m in re.findall(r'^\[Dealer "([NESW?])"\]$', text, re.M)]


def read_back(what, fmt, input_args, originals, tags):
    """Our records of an input in `fmt` (pbn or lin), read by endplay, against endplay's originals."""
    try:
        out = run([f"--format={fmt}", *input_args, "read.dl"])
    except RuntimeError as e:
        report(False, what, str(e))
        return
    if fmt == "pbn":
        boards = pbn.loads(out)
        dealers = board_dealers(out)
        if len(dealers) == len(boards):
            for board, letter in zip(boards, dealers):
                board.dealer = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}.get(letter)
    else:
        decoder = lin.LINDecoder()
        boards = [decoder.parse_line(line) for line in out.splitlines() if line.strip()]
    if len(boards) != len(originals):
        report(False, what, f"endplay read {len(boards)} boards, the originals are {len(originals)}")
        return
    differ = []
    for theirs, board in zip(boards, originals):
        want = expected(board, tags)
        got = {
            "deal": theirs.deal.to_pbn(),
            "board": theirs.board_num,
            "dealer": SEAT_LETTER.get(theirs.dealer),
            "vul": VUL_NAME.get(theirs.vul),
            "tags": {t: norm(theirs.info.get(t)) for t in tags},
        }
        if got != want:
            differ.append((want, got))
    detail = ""
    if differ:
        want, got = differ[0]
        parts = [k for k in want if want[k] != got[k]]
        detail = (f"{len(differ)} of {len(originals)} boards differ ({', '.join(parts)} in the first); first: "
                  f"board {want['board']}\n    original:          {want}\n    endplay read ours: {got}")
    report(not differ, f"{what}: endplay reads our {len(originals)} records as its originals "
           f"(deal, board, dealer, vulnerability, {'/'.join(tags)})", detail)


def dd_part(originals):
    boards = originals[::BOARDS // DD_BOARDS][:DD_BOARDS]
    tables = []
    for board in boards:
        table = calc_dd_table(board.deal)
        tables.append({(SEAT_LETTER[p], letter): table[denom, p] for p in SEATS for letter, denom, _ in STRAINS})
        # PBN 2.1 §5.7: the columns Declarer, Denomination and Result, the last two right-aligned
        # in two characters; endplay writes any `…Table` entry of board.info as a tag section.
        board.info["OptimumResultTable"] = {
            "headers": ["Declarer",
                        {"ordering": None, "name": "Denomination", "minwidth": "2", "alignment": "R"},
                        {"ordering": None, "name": "Result", "minwidth": "2", "alignment": "R"}],
            "rows": [[SEAT_LETTER[p], letter, str(table[denom, p])] for p in SEATS for letter, denom, _ in STRAINS],
        }
    text = pbn.dumps(boards)
    for board in boards:
        del board.info["OptimumResultTable"]
    with open("dd.pbn", "w", encoding="utf-8") as f:
        f.write(text)
    rows = len(re.findall(r"^[NESW] (NT| [SHDC]) ( \d|1[0-3])$", text, re.M))
    report(rows == 20 * len(boards) and text.count("[OptimumResultTable ") == len(boards),
           f"endplay wrote {len(boards)} OptimumResultTable sections of 20 rows in the \\2R columns",
           f"{rows} rows")

    values = ", ".join(f'"{s[0]}{key}" dds({s}, {name})' for s in ("north", "east", "south", "west")
                       for key, _, name in STRAINS)
    with open("dd_values.dl", "w", encoding="utf-8") as f:
        f.write(f"action printjson({values})\n")
    for extra, verified in (([], 0), (["--verify-dd=2"], 2)):
        label = f"dds() of {len(boards)} records with endplay's tables" + (" and --verify-dd=2" if extra else "")
        try:
            out = run(["--input=dd.pbn", "--json-summary", *extra, "dd_values.dl"])
        except RuntimeError as e:
            report(False, label, str(e))
            continue
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        records = [r for r in lines if r.get("type") == "deal"]
        summary = next((r for r in lines if r.get("type") == "summary"), {})
        got = [{(k[0].upper(), k[1:].upper()): v for k, v in r["values"].items()} for r in records]
        ok = got == tables
        detail = "" if ok else f"first record: ours {got[:1]}, endplay {tables[:1]}"
        want_counts = {"dd_read": len(boards) - verified, "dd_verified": verified}
        counts = {k: summary.get("input", {}).get(k) for k in want_counts}
        solved = summary.get("dd", {}).get("tables")
        if ok and (counts != want_counts or solved != verified):
            ok = False
            detail = f"summary: input {counts} (expected {want_counts}), dd tables solved {solved} (expected {verified})"
        report(ok, f"{label}: every value is endplay's, {solved} tables solved, input {counts}", detail)

    try:
        out = run(["--input=dd.pbn", "--format=jsonl", "--json-dd", "--json-summary", "read.dl"])
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        records = [r for r in lines if r.get("type") == "deal"]
        summary = next((r for r in lines if r.get("type") == "summary"), {})
        got = [{(s[0].upper(), letter): r["dd"][s][name] for s in ("north", "east", "south", "west")
                for letter, _, name in STRAINS} for r in records]
        ok = got == tables and summary.get("dd", {}).get("tables") == 0
        report(ok, f"--json-dd of {len(boards)} records: \"dd\" is endplay's table, 0 tables solved",
               "" if ok else f"summary dd {summary.get('dd')}")
    except (RuntimeError, KeyError) as e:
        report(False, "--json-dd of the records", repr(e))


def main():
    originals = make_boards()
    with open("endplay.pbn", "w", encoding="utf-8") as f:
        f.write(pbn.dumps(originals))
    with open("endplay.lin", "w", encoding="utf-8") as f:
        f.write(lin.dumps(originals))
    with open("read.dl", "w", encoding="utf-8") as f:
        f.write("action printjson\n")
    pbn_tags = ["Event", "Site"] + NAME_TAGS
    lin_tags = NAME_TAGS
    print(f"endplay wrote {len(originals)} boards as PBN ({sum(1 for b in originals if 'North' in b.info)} with "
          f"player names, {sum(1 for b in originals if 'Event' in b.info)} with an event) and as LIN")

    read_ours("endplay's PBN (format found)", ["--input=endplay.pbn"], originals, pbn_tags)
    read_ours("endplay's PBN (--input-format=pbn, standard input)", ["--input=-", "--input-format=pbn"], originals,
              pbn_tags, stdin=open("endplay.pbn", encoding="utf-8").read())
    read_ours("endplay's LIN (format found)", ["--input=endplay.lin"], originals, lin_tags)
    read_ours("endplay's LIN (--input-format=lin)", ["--input=endplay.lin", "--input-format=lin"], originals,
              lin_tags)

    read_back("PBN read, PBN written", "pbn", ["--input=endplay.pbn"], originals, pbn_tags)
    read_back("PBN read, LIN written", "lin", ["--input=endplay.pbn"], originals, lin_tags)
    read_back("LIN read, PBN written", "pbn", ["--input=endplay.lin"], originals, lin_tags)
    read_back("LIN read, LIN written", "lin", ["--input=endplay.lin"], originals, lin_tags)

    dd_part(originals)

    if failures:
        print(f"{len(failures)} part(s) differ")
        sys.exit(1)


main()
