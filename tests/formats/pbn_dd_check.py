"""The independent check of `--pbn-dd` and `--json-dd`: PBN 2.1's double-dummy tags read back by
two readers that are not ours, compared with double-dummy results computed another way.

Readers: endplay's PBN parser (which reads any `…Table` tag section generically into
`board.info`) and a strict line parser written here from the PBN 2.1 standard (§5.7
OptimumResultTable: columns Declarer, Denomination and Result, the last two right-aligned in two
characters as the column format `\\2R` says; §4.2 OptimumScore in the `"NS <score>"` form).

For every board:
- the 20 results equal endplay's own double-dummy table of the deal endplay read (endplay
  bundles DDS and calls it itself) and, when VALUES.jsonl is given, our script's `dds(…)` values
  of the same deal (a run of the same script and seed with `printjson(…)` of the 20 `dds` and the
  four `par(NS, …)` expressions);
- OptimumScore equals endplay's par score for the board's dealer and vulnerability and, when the
  board's dealer is North or South (North–South bid first, as our `par` has it), our `par(NS, v)`;
- every ParContract contract, scored with the table's tricks by a duplicate scorer written here,
  gives OptimumScore, and the contracts are endplay's par contracts (seat by seat);
- the `"dd"` and `"par"` fields of our JSON Lines with `--json-dd` (DD.jsonl, same run otherwise)
  equal the tags.

Usage: pbn_dd_check.py THEIRS.pbn DD.jsonl [VALUES.jsonl]
Prints what it compared; exits 1 on the first difference.
"""

import json
import re
import sys

from endplay.dds import calc_dd_table, par
from endplay.parsers import pbn
from endplay.types import Denom, Player, Vul

SEATS = "NESW"
DENOMS = ["NT", "S", "H", "D", "C"]
PLAYER = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
DENOM = {"NT": Denom.nt, "S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs}
VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
SEAT_KEY = {"N": "north", "E": "east", "S": "south", "W": "west"}
STRAIN_KEY = {"NT": "notrump", "S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
VALUE_STRAIN = {"NT": "n", "S": "s", "H": "h", "D": "d", "C": "c"}

TABLE_TAG = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]'
# One row: declarer, a space, the denomination right-aligned in 2, a space, tricks right-aligned in 2.
ROW = re.compile(r"^([NESW]) (NT| [SHDC]) ( \d|1[0-3])$")
SCORE = re.compile(r'^\[OptimumScore "NS (-?\d+)"\]$')
PAR_CONTRACT = re.compile(r'^\[ParContract "([^"]*)"\]$')
CONTRACT = re.compile(r"^(NS|EW|[NESW]) ([1-7])(NT|[SHDC])(X?)$")


def fail(message):
    print(message)
    sys.exit(1)


def strict_records(text):
    """Each record's DD tags as the standard writes them: (table {(seat, denom): tricks}, score, par contract)."""
    records = []
    for block in text.split("\n\n"):
        lines = block.strip("\n").split("\n")
        if not any(line.startswith("[Deal ") for line in lines):
            continue
        try:
            start = lines.index(TABLE_TAG)
        except ValueError:
            fail(f"a record without the OptimumResultTable tag line {TABLE_TAG}:\n{block}")
        table = {}
        for line in lines[start + 1 : start + 21]:
            m = ROW.match(line)
            if not m:
                fail(f"OptimumResultTable row not in the \\2R column format: {line!r}")
            table[(m.group(1), m.group(2).strip())] = int(m.group(3))
        if sorted(table) != sorted((s, d) for s in SEATS for d in DENOMS):
            fail(f"the table does not have one row per declarer and denomination: {sorted(table)}")
        score = SCORE.match(lines[start + 21]) if len(lines) > start + 21 else None
        contract = PAR_CONTRACT.match(lines[start + 22]) if len(lines) > start + 22 else None
        if not score or not contract:
            fail(f"OptimumScore and ParContract must follow the table's 20 rows:\n{block}")
        records.append((table, int(score.group(1)), contract.group(1)))
    return records


def trick_score(level, denom, doubled, vulnerable, tricks):
    """Duplicate score for the declaring side (undoubled or doubled; no redoubles in par)."""
    need = level + 6
    if tricks < need:
        down = need - tricks
        if not doubled:
            return -down * (100 if vulnerable else 50)
        if vulnerable:
            return -(200 + 300 * (down - 1))
        return -(100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0))
    per = 20 if denom in "CD" else 30
    trick_points = per * level + (10 if denom == "NT" else 0)
    if doubled:
        trick_points *= 2
    score = trick_points
    score += (500 if vulnerable else 300) if trick_points >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    if level == 7:
        score += 1500 if vulnerable else 1000
    over = tricks - need
    if doubled:
        score += 50 + over * (200 if vulnerable else 100)
    else:
        score += over * per
    return score


def contract_seats(who):
    return {"NS": "NS", "EW": "EW"}.get(who, who)


def check_par_contracts(where, text, table, score_ns, vul):
    if text == "Pass":
        if score_ns != 0:
            fail(f"{where}: ParContract Pass with OptimumScore {score_ns}")
        return set()
    seats = set()
    for item in text.split("; "):
        m = CONTRACT.match(item)
        if not m:
            fail(f"{where}: ParContract item {item!r} is not <declarer> <level><denomination>[X]")
        who, level, denom, doubled = m.group(1), int(m.group(2)), m.group(3), m.group(4) == "X"
        side = "NS" if who in ("NS", "N", "S") else "EW"
        vulnerable = vul == "All" or vul == side
        declarers = contract_seats(who)
        tricks = max(table[(s, denom)] for s in declarers)
        score = trick_score(level, denom, doubled, vulnerable, tricks)
        got = score if side == "NS" else -score
        if got != score_ns:
            fail(f"{where}: {item} takes {tricks} tricks: {got} for NS, OptimumScore says {score_ns}")
        for s in declarers:
            if table[(s, denom)] == tricks:
                seats.add((level, denom, s))
    return seats


def main():
    pbn_path, dd_path = sys.argv[1:3]
    values_path = sys.argv[3] if len(sys.argv) > 3 else None
    with open(pbn_path, encoding="utf-8") as f:
        text = f.read()
    strict = strict_records(text)
    with open(pbn_path, encoding="utf-8") as f:
        boards = pbn.load(f)
    with open(dd_path, encoding="utf-8") as f:
        dd = [json.loads(line) for line in f if line.strip()]
    values = None
    if values_path:
        with open(values_path, encoding="utf-8") as f:
            values = [json.loads(line)["values"] for line in f if line.strip()]
    if not (len(strict) == len(boards) == len(dd)) or (values is not None and len(values) != len(boards)):
        fail(f"counts differ: {len(strict)} strict, {len(boards)} endplay, {len(dd)} JSON, values {values and len(values)}")
    for i, (board, (table, score_ns, contracts), obj) in enumerate(zip(boards, strict, dd)):
        where = f"board {board.board_num}"
        # endplay's reading of the same tags.
        ort = board.info.get("OptimumResultTable")
        if not ort or len(ort["rows"]) != 20:
            fail(f"{where}: endplay did not read 20 OptimumResultTable rows: {ort}")
        theirs = {(r[0], r[1]): int(r[2]) for r in ort["rows"]}
        if theirs != table:
            fail(f"{where}: endplay read the table as {theirs}, the strict reader as {table}")
        if board.info.get("OptimumScore") != f"NS {score_ns}" or board.info.get("ParContract") != contracts:
            fail(f"{where}: endplay read {board.info.get('OptimumScore')!r} {board.info.get('ParContract')!r}")
        # endplay's own solver on the deal endplay read.
        solved = calc_dd_table(board.deal)
        for (s, d), tricks in table.items():
            if solved[DENOM[d], PLAYER[s]] != tricks:
                fail(f"{where}: {s} {d} takes {solved[DENOM[d], PLAYER[s]]} tricks by endplay's DDS, {tricks} in our tag")
        vul = obj["vulnerable"]
        their_par = par(solved, VUL[vul], board.dealer)
        if their_par.score != score_ns:
            fail(f"{where}: endplay's par is {their_par.score}, our OptimumScore {score_ns}")
        ours = check_par_contracts(where, contracts, table, score_ns, vul)
        theirs = {(c.level, DENOMS[[Denom.nt, Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs].index(c.denom)],
                   SEATS[[Player.north, Player.east, Player.south, Player.west].index(c.declarer)])
                  for c in their_par}
        if ours != theirs:
            fail(f"{where}: ParContract {contracts!r} is {sorted(ours)}, endplay's par contracts {sorted(theirs)}")
        # Our JSON Lines of the same boards.
        if obj["board"] != board.board_num:
            fail(f"{where}: the JSON Lines have board {obj['board']} here")
        json_table = {(s, d): obj["dd"][SEAT_KEY[s]][STRAIN_KEY[d]] for s in SEATS for d in DENOMS}
        if json_table != table or obj["par"] != {"score_ns": score_ns, "contracts": contracts}:
            fail(f"{where}: JSON dd/par {obj['dd']} {obj['par']} differ from the PBN tags")
        # Our script's dds()/par() values of the same deal.
        if values is not None:
            v = values[i]
            for s in SEATS:
                for d in DENOMS:
                    if v[f"{s.lower()}{VALUE_STRAIN[d]}"] != table[(s, d)]:
                        fail(f"{where}: dds({SEAT_KEY[s]}, {STRAIN_KEY[d]}) is {v[s.lower() + VALUE_STRAIN[d]]}, the tag {table[(s, d)]}")
            if obj["dealer"] in ("N", "S") and v[f"par_{vul.lower()}"] != score_ns:
                fail(f"{where}: par(NS, {vul}) is {v['par_' + vul.lower()]}, OptimumScore {score_ns}")
    extra = " and our dds()/par() values" if values is not None else ""
    print(f"PBN DD: {len(boards)} boards read by endplay and the strict reader; tables equal endplay's DDS{extra};"
          " OptimumScore and ParContract equal endplay's par and score by the table; JSON dd/par equal the tags")


if __name__ == "__main__":
    main()
