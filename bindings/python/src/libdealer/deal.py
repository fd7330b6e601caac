"""A deal: four hands as card bitmasks (North, East, South, West), with its PBN and one-line
texts, read back from PBN so that deals pass both ways between libdealer and other bridge
libraries (endplay's ``Deal(pbn)``, redeal's and anything else that reads PBN).

In each hand's mask bit ``16 * suit + rank`` is set for a held card: suit clubs 0 … spades 3,
rank 0 for the deuce … 12 for the ace (the C ABI's ``dealer_deal``)."""

from __future__ import annotations

from typing import Iterator, Sequence, Tuple, Union

from ._native import ffi, lib
from .errors import check

#: Seat names in the library's order; a seat is given by name, initial or index 0..3.
SEATS: Tuple[str, str, str, str] = ("north", "east", "south", "west")
#: Suit names in PBN's order (spades first); the suit index of the masks is 3 - position.
SUITS: Tuple[str, str, str, str] = ("spades", "hearts", "diamonds", "clubs")
RANKS = "23456789TJQKA"

SeatLike = Union[int, str]


def seat_index(seat: SeatLike) -> int:
    """The index 0..3 of a seat given as ``0``..``3``, ``"north"``, ``"N"``, ``"n"`` …"""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3:
        return seat
    if isinstance(seat, str) and seat:
        name = seat.lower()
        for i, full in enumerate(SEATS):
            if name in (full, full[0]):
                return i
    raise ValueError(f"not a seat: {seat!r} (north, east, south, west, their initials or 0..3)")


class Deal:
    """Four hands. Equal deals compare and hash equal; ``str(deal)`` is the PBN text."""

    __slots__ = ("hands",)

    def __init__(self, hands: Sequence[int]) -> None:
        """A deal from four card masks (North, East, South, West)."""
        if len(hands) != 4:
            raise ValueError("a deal has four hands")
        self.hands: Tuple[int, int, int, int] = tuple(int(h) for h in hands)  # type: ignore[assignment]

    @classmethod
    def from_pbn(cls, text: str) -> "Deal":
        """Reads a PBN ``[Deal]`` value such as ``"N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 …"``: the
        first hand's seat, a colon, four hands clockwise from it (``S.H.D.C``, any case, ``-``
        for an empty hand). Raises :class:`UsageError` with the column for anything else (a card
        twice, a hand of more than 13 cards, …)."""
        session = _scratch_session()
        out = ffi.new("dealer_deal *")
        check(session, lib.dealer_deal_from_pbn(session, text.encode("utf-8"), out))
        return cls._from_c(out)

    @classmethod
    def _from_c(cls, deal: object) -> "Deal":
        """A deal copied from a ``dealer_deal`` (pointer or element)."""
        hands = deal.hands  # type: ignore[attr-defined]
        return cls((hands[0], hands[1], hands[2], hands[3]))

    def _to_c(self) -> object:
        """A new ``dealer_deal *`` holding this deal."""
        return ffi.new("dealer_deal *", {"hands": list(self.hands)})

    def pbn(self) -> str:
        """The PBN ``[Deal]`` value, North first: ``N:<north> <east> <south> <west>``."""
        buffer = ffi.new("char[80]")
        n = lib.dealer_deal_to_pbn(self._to_c(), buffer, 80)
        return ffi.string(buffer, n).decode("ascii")

    def oneline(self) -> str:
        """The peers' one-line text, as ``printoneline`` prints it without the line end."""
        buffer = ffi.new("char[96]")
        n = lib.dealer_deal_to_oneline(self._to_c(), buffer, 96)
        return ffi.string(buffer, n).decode("ascii")

    def hand(self, seat: SeatLike) -> str:
        """One hand as PBN text ``S.H.D.C``, e.g. ``AKQ2.K32.A92.T98``."""
        mask = self.hands[seat_index(seat)]
        return ".".join(
            "".join(RANKS[r] for r in range(12, -1, -1) if mask >> (16 * (3 - s) + r) & 1) for s in range(4)
        )

    def cards(self, seat: SeatLike) -> Iterator[str]:
        """The cards of a hand as two-letter names (``SA``, ``HT`` …), highest first by suit."""
        mask = self.hands[seat_index(seat)]
        for s, letter in enumerate("SHDC"):
            for r in range(12, -1, -1):
                if mask >> (16 * (3 - s) + r) & 1:
                    yield letter + RANKS[r]

    def is_complete(self) -> bool:
        """Whether the deal holds each of the 52 cards once, 13 in every hand."""
        union = 0
        for h in self.hands:
            if bin(h).count("1") != 13 or union & h:
                return False
            union |= h
        return bin(union).count("1") == 52

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.pbn()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.hands == other.hands

    def __hash__(self) -> int:
        return hash(self.hands)


def _scratch_session() -> object:
    """A session of its own for a call that needs one only for its error message."""
    out = ffi.new("dealer_session **")
    if lib.dealer_create_session(out) != lib.DEALER_OK:
        raise MemoryError("cannot create a libdealer session")
    return ffi.gc(out[0], lib.dealer_free_session)
