"""Double-dummy results of a deal: the 20 trick counts (declarer × strain) and, when asked
for, the par score and contract, as :meth:`Session.dd_table` returns them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple, Union

from .deal import SeatLike, seat_index

#: Strain names in the table's order (index 4 is notrump).
STRAINS: Tuple[str, str, str, str, str] = ("clubs", "diamonds", "hearts", "spades", "notrump")
#: Vulnerabilities for par, in the C ABI's order (0 none, 1 NS, 2 EW, 3 both).
VULNERABILITIES: Tuple[str, str, str, str] = ("none", "ns", "ew", "both")

StrainLike = Union[int, str]


def strain_index(strain: StrainLike) -> int:
    """The index 0..4 of a strain given as ``0``..``4``, ``"spades"``, ``"S"``, ``"NT"`` …"""
    if isinstance(strain, int) and not isinstance(strain, bool) and 0 <= strain <= 4:
        return strain
    if isinstance(strain, str) and strain:
        name = strain.lower()
        if name in ("n", "nt", "notrump", "notrumps"):
            return 4
        for i, full in enumerate(STRAINS[:4]):
            if name in (full, full[0], full[:-1]):
                return i
    raise ValueError(f"not a strain: {strain!r} (clubs, diamonds, hearts, spades, notrump or 0..4)")


def vulnerability_index(vulnerability: Union[int, str]) -> int:
    """The index 0..3 of a vulnerability given as ``0``..``3``, ``"none"``, ``"ns"``, ``"ew"``,
    ``"both"`` (or ``"all"``)."""
    if isinstance(vulnerability, int) and not isinstance(vulnerability, bool) and 0 <= vulnerability <= 3:
        return vulnerability
    if isinstance(vulnerability, str):
        name = vulnerability.lower().replace("-", "")
        if name == "all":
            return 3
        if name in VULNERABILITIES:
            return VULNERABILITIES.index(name)
    raise ValueError(f"not a vulnerability: {vulnerability!r} (none, ns, ew, both or 0..3)")


@dataclass(frozen=True)
class DdTable:
    """All double-dummy results of a deal.

    Attributes:
        tricks: ``tricks[declarer][strain]``, the tricks the declarer takes with the opening
            lead from their left (declarer 0 North … 3 West; strain 0 clubs … 4 notrump).
        par_score: the par score from North–South's point of view, or ``None`` when no par was
            asked for.
        par_contract: DealerV2's par-contract text (``" 4H  by NS both"``; ``*`` marks a
            sacrifice), or ``None``.
    """

    tricks: Tuple[Tuple[int, int, int, int, int], ...]
    par_score: Optional[int] = None
    par_contract: Optional[str] = None

    def __getitem__(self, key: Tuple[SeatLike, StrainLike]) -> int:
        """``table["south", "NT"]``: the tricks of one declarer in one strain."""
        declarer, strain = key
        return self.tricks[seat_index(declarer)][strain_index(strain)]

    def as_array(self):  # -> numpy.ndarray
        """The tricks as a 4 × 5 NumPy array of ``int32`` (declarer × strain)."""
        import numpy

        return numpy.array(self.tricks, dtype=numpy.int32)
