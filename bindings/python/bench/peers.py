"""Deal-generation rates of two Python peers, endplay and redeal.

Each peer deals with its own dealer and tests a Python predicate that
implements one of the dealer-language conditions in ``CONDITIONS``, so the
rates can be set beside libdealer's for the same condition text.

This module imports without the peers installed: they are imported inside the
functions that use them.  Install them in a scratch venv:

    python3 -m venv /work/scratch/peers-venv
    /work/scratch/peers-venv/bin/pip install endplay
    # redeal is not on PyPI: install it from a checkout of anntzer/redeal
    # whose ``dds`` submodule is present (pip builds DDS from source).

Run ``python peers.py`` for a table of rates, ``python peers.py --check`` to
compare the peers' acceptance frequencies with the exact probabilities.
"""

from __future__ import annotations

import sys
import time
from math import comb

CONDITIONS: dict[str, tuple[str, str]] = {
    "any": ("1", "every deal"),
    "1nt": (
        "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)",
        "North opens 1NT: 15-17, balanced",
    ),
    "strong": ("hcp(north) >= 22", "North has 22+ HCP"),
}

PEERS = ("endplay", "redeal")

# Count of accepted deals per run used by ``__main__``: each run takes about
# 2-5 s on the reference machine (2 cores, Python 3.11).
MAIN_N: dict[str, dict[str, int]] = {
    "endplay": {"any": 50_000, "1nt": 1_800, "strong": 160},
    "redeal": {"any": 40_000, "1nt": 3_000, "strong": 300},
}


def _endplay_predicate(name: str):
    """Return a ``Deal -> bool`` for condition *name* on endplay's Deal."""
    from endplay.evaluate import hcp, is_balanced  # is_balanced: 4333/4432/5332

    if name == "any":
        return lambda deal: True
    if name == "1nt":

        def one_nt(deal) -> bool:
            north = deal.north
            return 15 <= hcp(north) <= 17 and is_balanced(north)

        return one_nt
    if name == "strong":
        return lambda deal: hcp(deal.north) >= 22
    raise KeyError(name)


def _redeal_predicate(name: str):
    """Return an accept function for condition *name* on redeal's Deal."""
    from redeal import balanced  # Shape (4333) + (4432) + (5332)

    if name == "any":
        return lambda deal: True
    if name == "1nt":

        def one_nt(deal) -> bool:
            north = deal.north
            return 15 <= north.hcp <= 17 and balanced(north)

        return one_nt
    if name == "strong":
        return lambda deal: deal.north.hcp >= 22
    raise KeyError(name)


def endplay_rate(name: str, n: int, seed: int = 1) -> float:
    """Accepted deals per second from endplay's ``generate_deals``.

    Times (perf_counter) the production of *n* accepted deals for condition
    *name* into a list.  ``max_attempts=-1`` lifts endplay's default cap of a
    million shuffles *in total*, which a rare condition would otherwise hit.
    """
    from endplay.dealer import generate_deals

    predicate = _endplay_predicate(name)
    start = time.perf_counter()
    deals = list(generate_deals(predicate, produce=n, seed=seed, max_attempts=-1))
    elapsed = time.perf_counter() - start
    assert len(deals) == n
    return n / elapsed


def redeal_rate(name: str, n: int, seed: int = 1) -> float:
    """Accepted deals per second from redeal's dealer (``Deal.prepare``).

    redeal shuffles with the global ``random`` module, so that is what
    *seed* seeds.  Its dealer gives up after ``tries`` rejections (1000 by
    default, which a 22+ HCP condition exceeds about once in 80 deals), so
    ``tries`` is made effectively unlimited.
    """
    import random

    from redeal import Deal

    accept = _redeal_predicate(name)
    dealer = Deal.prepare({})
    random.seed(seed)
    start = time.perf_counter()
    deals = [dealer(accept, tries=sys.maxsize) for _ in range(n)]
    elapsed = time.perf_counter() - start
    assert len(deals) == n
    return n / elapsed


def peer_versions() -> dict[str, str | None]:
    """Installed version of each peer, or None when it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    versions: dict[str, str | None] = {}
    for peer in PEERS:
        try:
            versions[peer] = version(peer)
        except PackageNotFoundError:
            versions[peer] = None
    return versions


def exact_probability(name: str) -> float:
    """Exact probability that a random deal meets condition *name*.

    Counts North's 13-card hands by suit lengths and HCP: a suit of length
    ``l`` holding the honours ``S`` (from A K Q J) has ``comb(9, l - |S|)``
    choices of small cards.
    """
    from itertools import permutations

    # per_suit[l][p]: holdings of one suit with length l worth p HCP
    per_suit = [[0] * 11 for _ in range(14)]
    for mask in range(16):
        honours = [v for i, v in enumerate((4, 3, 2, 1)) if mask >> i & 1]
        for length in range(len(honours), len(honours) + 10):
            per_suit[length][sum(honours)] += comb(9, length - len(honours))

    def by_hcp(lengths: tuple[int, ...]) -> list[int]:
        """Number of hands with these suit lengths, indexed by HCP."""
        counts = [1] + [0] * 40
        for length in lengths:
            nxt = [0] * 41
            for p, ways in enumerate(counts):
                for q, w in enumerate(per_suit[length]):
                    if ways and w:
                        nxt[p + q] += ways * w
            counts = nxt
        return counts

    if name == "any":
        return 1.0
    if name == "1nt":
        shapes = {(4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)}
        patterns = {p for s in shapes for p in permutations(s)}
        wanted = sum(sum(by_hcp(p)[15:18]) for p in patterns)
    elif name == "strong":
        patterns = [(a, b, c, 13 - a - b - c)
                    for a in range(14) for b in range(14 - a) for c in range(14 - a - b)]
        wanted = sum(sum(by_hcp(p)[22:]) for p in patterns)
    else:
        raise KeyError(name)
    return wanted / comb(52, 13)


def check_predicates(n: int = 200_000, seed: int = 1) -> dict[str, dict[str, float]]:
    """Acceptance frequency of each condition over *n* unconstrained deals.

    Returns ``{peer: {condition: frequency}}`` for the installed peers, each
    peer dealing with its own dealer and judging with its own predicates.
    Compare with ``exact_probability``: the standard error is about
    ``sqrt(p * (1 - p) / n)`` (0.00048 for 1nt, 0.00015 for strong at 200k).
    """
    import random

    names = [name for name in CONDITIONS if name != "any"]
    installed = peer_versions()
    result: dict[str, dict[str, float]] = {}
    if installed["endplay"]:
        from endplay.dealer import generate_deals

        tests = {name: _endplay_predicate(name) for name in names}
        hits = dict.fromkeys(names, 0)
        for deal in generate_deals(produce=n, seed=seed, max_attempts=-1):
            for name, test in tests.items():
                hits[name] += test(deal)
        result["endplay"] = {name: hits[name] / n for name in names}
    if installed["redeal"]:
        from redeal import Deal

        tests = {name: _redeal_predicate(name) for name in names}
        hits = dict.fromkeys(names, 0)
        dealer = Deal.prepare({})
        random.seed(seed)
        for _ in range(n):
            deal = dealer()
            for name, test in tests.items():
                hits[name] += test(deal)
        result["redeal"] = {name: hits[name] / n for name in names}
    return result


def main(argv: list[str]) -> None:
    """Print the peers' versions and a table of rates (or, with --check, frequencies)."""
    versions = peer_versions()
    print("peers:", ", ".join(f"{p} {v or 'not installed'}" for p, v in versions.items()))
    if "--check" in argv:
        freqs = check_predicates()
        print(f"{'condition':<8} {'exact':>9} " + " ".join(f"{p:>9}" for p in freqs))
        for name in CONDITIONS:
            if name != "any":
                row = " ".join(f"{freqs[p][name]:>9.5f}" for p in freqs)
                print(f"{name:<8} {exact_probability(name):>9.5f} {row}")
        return
    rate_of = {"endplay": endplay_rate, "redeal": redeal_rate}
    print(f"{'condition':<8} {'peer':<8} {'n':>7} {'seconds':>8} {'deals/s':>10}  description")
    for name, (_, description) in CONDITIONS.items():
        for peer in PEERS:
            if versions[peer]:
                n = MAIN_N[peer][name]
                rate = rate_of[peer](name, n)
                print(f"{name:<8} {peer:<8} {n:>7} {n / rate:>8.2f} {rate:>10.1f}  {description}")


if __name__ == "__main__":
    main(sys.argv[1:])
