"""Deals pass both ways between libdealer and endplay (PyPI) as PBN text, and endplay's own
evaluation agrees with the script language on them."""

from __future__ import annotations

from endplay.evaluate import hcp as endplay_hcp
from endplay.types import Deal as EndplayDeal

from libdealer import Deal, Session


def test_deals_go_to_endplay_and_back():
    session = Session("condition hcp(south) >= 12", seed=17)
    for deal in session.deals(50):
        theirs = EndplayDeal(deal.pbn())
        assert Deal.from_pbn(theirs.to_pbn()) == deal
        assert endplay_hcp(theirs.south) == session.eval("hcp(south)") >= 12
        assert len(theirs.north.spades) == session.eval("spades(north)")


def test_an_endplay_deal_is_evaluated_and_solved_here():
    theirs = EndplayDeal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    ours = Deal.from_pbn(theirs.to_pbn())
    session = Session("condition 1")
    assert session.eval("hcp(north)", ours) == endplay_hcp(theirs.north) == 37
    assert session.dd_table(ours)["north", "notrump"] == 13
