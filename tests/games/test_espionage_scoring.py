"""Walking back the dog: a hand-built city for every scoring clause, with its expected points.

Four players unless said otherwise: the points needed to end the game are 160, so a fifth is 32,
a tenth 16, a twentieth 8 and a quarter 40.
"""

from spyglass.components import parse_card
from spyglass.games.espionage.meanings import Role, role_of, round_away
from spyglass.games.espionage.scoring import Play, Walk, breakdown

SPY, MASTER, AGENT, DOUBLE, CIVILIAN = (
    Role.SPY,
    Role.SPY_MASTER,
    Role.COUNTER_ESPIONAGE,
    Role.DOUBLE_AGENT,
    Role.CIVILIAN,
)


def walk(roles, plays, scores=None, unit=160):
    """Score a city: ``plays`` are (turn, giver, receiver, card) in play order."""
    scores = scores or [0] * len(roles)
    w = Walk(list(roles), [Play(t, g, r, parse_card(c)) for t, g, r, c in plays], scores, unit)
    after = w.run()
    return [a - b for a, b in zip(after, scores, strict=True)], w


def test_role_cards() -> None:
    assert role_of(parse_card("7H")) is SPY and role_of(parse_card("AD")) is SPY
    assert role_of(parse_card("QD")) is MASTER and role_of(parse_card("KS")) is AGENT
    assert role_of(parse_card("2S")) is AGENT and role_of(parse_card("JC")) is DOUBLE
    assert role_of(parse_card("10C")) is CIVILIAN and role_of(parse_card("AC")) is CIVILIAN


def test_rounding_away_from_zero() -> None:
    assert [round_away(x) for x in (4.5, -4.5, 16.0, 5.2, -5.2)] == [5, -5, 16, 6, -6]


# ----------------------------------------------------------------- counter-espionage agent


def test_agent_arrests_a_spy_master_and_seizes_secrets_from_that_turn_on() -> None:
    # Seat 0 agent, 1 spy master, 2 spy, 3 spy. In turn 2 the spy plays 9♥ on the master,
    # then the agent arrests him with the K♠: for the agent the 9♥ of the same turn counts, the
    # 5♦ of turn 1 does not, the 7♥ of turn 3 does. The master keeps what spies gave him before
    # the arrest in play order (5♦ and 9♥), not the 7♥.
    roles = [AGENT, MASTER, SPY, SPY]
    plays = [(1, 3, 1, "5D"), (2, 2, 1, "9H"), (2, 0, 1, "KS"), (3, 3, 1, "7H")]
    delta, w = walk(roles, plays)
    assert delta[0] == 32 + 9 + 7
    assert delta[1] == 5 + 9 - 32
    agent = breakdown(w.changes, 4)[0]
    assert agent == {"arrest bonus": 32, "secrets seized": 16}


def test_agent_arrests_a_spy_with_a_ten_and_seizes_what_that_spy_passes() -> None:
    roles = [AGENT, MASTER, SPY, CIVILIAN]
    plays = [(1, 2, 1, "8H"), (2, 0, 2, "10S"), (2, 2, 3, "6D"), (3, 2, 1, "QH")]
    delta, _ = walk(roles, plays)
    # Bonus a tenth (16) + the 6♦ and Q♥ the spy played from turn 2 on (not the 8♥).
    assert delta[0] == 16 + 6 + 12
    assert delta[2] == 24 - 32  # the 8♥ to the master (x3) before the arrest, then arrested


def test_a_ten_cannot_arrest_a_spy_master() -> None:
    delta, w = walk([AGENT, MASTER, SPY, SPY], [(1, 0, 1, "10C")])
    assert delta == [0, 0, 0, 0] and w.changes == []


def test_only_a_first_arrest_pays_the_bonus() -> None:
    roles = [AGENT, SPY, AGENT, CIVILIAN]
    plays = [(1, 0, 1, "JS"), (2, 2, 1, "KC"), (3, 0, 1, "QS")]
    delta, _ = walk(roles, plays)
    assert delta[0] == 16 and delta[2] == 0
    assert delta[1] == -32  # the spy pays once, however many arrests


def test_agents_arresting_in_the_same_turn_share_rounding_away_from_zero() -> None:
    # Seven players: the unit is 180, a tenth 18. Four agents arrest a spy in one turn.
    roles = [AGENT, AGENT, AGENT, AGENT, SPY, CIVILIAN, MASTER]
    plays = [(1, seat, 4, "JS") for seat in range(4)]
    delta, _ = walk(roles, plays, unit=180)
    assert delta[:4] == [5, 5, 5, 5]  # 18 / 4 = 4.5 -> 5
    roles = [AGENT, AGENT, AGENT, AGENT, CIVILIAN, SPY, MASTER]
    delta, _ = walk(roles, plays, scores=[50] * 7, unit=180)
    assert delta[:4] == [-5, -5, -5, -5]  # a civilian: -18 / 4 = -4.5 -> -5


def test_agent_rejected_by_a_free_spy_loses_a_twentieth_but_not_below_zero() -> None:
    roles = [AGENT, SPY, MASTER, CIVILIAN]
    delta, w = walk(roles, [(1, 1, 0, "AH")], scores=[20, 0, 0, 0])
    assert delta[0] == -8
    delta, w = walk(roles, [(1, 1, 0, "AH")], scores=[5, 0, 0, 0])
    assert delta[0] == -5 and w.changes[-1].asked == -8  # the floor
    delta, _ = walk(roles, [(1, 0, 1, "JS"), (2, 1, 0, "2C")], scores=[20, 0, 0, 0])
    assert delta[0] == 16  # rejected by a spy already arrested: no loss


def test_agent_arresting_a_double_agent_can_go_negative() -> None:
    roles = [AGENT, DOUBLE, SPY, CIVILIAN]
    delta, _ = walk(roles, [(1, 0, 1, "JS")], scores=[10, 5, 0, 0])
    assert delta[0] == -32  # 10 - 32: negative allowed
    assert delta[1] == -5  # the double agent's tenth (16) is floored at its 5 points


def test_agent_arresting_a_civilian_cannot_go_negative() -> None:
    roles = [AGENT, CIVILIAN, SPY, MASTER]
    delta, _ = walk(roles, [(1, 0, 1, "10S")], scores=[10, 0, 0, 0])
    assert delta[0] == -10
    assert delta[1] == 40 - 32  # the civilian's quarter, then arrested: a fifth


# ----------------------------------------------------------------- spy master


def test_master_earns_secrets_from_spies_until_arrested() -> None:
    roles = [MASTER, SPY, AGENT, CIVILIAN]
    plays = [(1, 1, 0, "9H"), (1, 3, 0, "8D"), (2, 2, 0, "QC"), (3, 1, 0, "KD")]
    delta, _ = walk(roles, plays)
    # The 9♥ from the spy counts; the civilian's 8♦ does not; the K♦ comes after the arrest.
    assert delta[0] == 9 - 32


def test_master_and_the_double_agents_secrets() -> None:
    roles = [MASTER, DOUBLE, SPY, CIVILIAN]
    delta, _ = walk(roles, [(1, 1, 0, "8H"), (2, 1, 0, "7D")])
    assert delta[0] == -24 + 14  # even: -3x8; odd: +2x7


def test_master_rejections() -> None:
    roles = [MASTER, DOUBLE, SPY, CIVILIAN]
    delta, _ = walk(roles, [(1, 0, 1, "AS")])
    assert delta[0] == 16 and delta[1] == -16  # a double agent rejected by a master
    delta, w = walk(roles, [(1, 0, 2, "2H")], scores=[3, 0, 0, 0])
    assert delta[0] == -3 and w.changes[-1].asked == -8  # rejecting a spy: floored


def test_a_rejection_scores_once_per_pair() -> None:
    roles = [MASTER, DOUBLE, SPY, CIVILIAN]
    delta, _ = walk(roles, [(1, 0, 1, "AS"), (2, 0, 1, "2S"), (3, 0, 1, "AH")])
    assert delta[0] == 16 and delta[1] == -16


# ----------------------------------------------------------------- spy


def test_spy_passes_secrets_to_spies_and_masters_until_an_arrest() -> None:
    roles = [SPY, SPY, MASTER, AGENT]
    plays = [(1, 0, 1, "5H"), (2, 0, 2, "6D"), (3, 3, 2, "JS"), (4, 0, 2, "9H"), (5, 0, 1, "10H")]
    delta, _ = walk(roles, plays)
    # 5♥ to a spy (+5), 6♦ to the master (+18), 9♥ after the master's arrest (0), 10♥ to the
    # other spy (+10, neither arrested).
    assert delta[0] == 5 + 18 + 10


def test_spy_and_the_double_agents_secrets() -> None:
    roles = [SPY, DOUBLE, MASTER, AGENT]
    delta, _ = walk(roles, [(1, 1, 0, "4H"), (2, 1, 0, "KD")])
    assert delta[0] == -4 + 13


def test_arrested_spy_pays_once() -> None:
    roles = [SPY, AGENT, AGENT, MASTER]
    delta, _ = walk(roles, [(1, 1, 0, "JC"), (2, 2, 0, "10S")], scores=[5, 0, 0, 0])
    assert delta[0] == -32  # can go negative


# ----------------------------------------------------------------- innocent civilian


def test_civilian_quarter_and_loose_lips() -> None:
    roles = [CIVILIAN, SPY, MASTER, AGENT]
    plays = [(1, 0, 1, "5H"), (2, 0, 2, "6D"), (3, 3, 2, "QS"), (4, 0, 2, "9H"), (5, 0, 3, "8D")]
    delta, _ = walk(roles, plays)
    # +40, -5 to the spy, -12 to the master, nothing after his arrest, nothing to the agent.
    assert delta[0] == 40 - 5 - 12


def test_civilian_arrested() -> None:
    delta, _ = walk([CIVILIAN, AGENT, SPY, MASTER], [(1, 1, 0, "10C")])
    assert delta[0] == 40 - 32


# ----------------------------------------------------------------- double agent


def test_double_agent_plants_even_secrets() -> None:
    roles = [DOUBLE, SPY, MASTER, AGENT]
    delta, _ = walk(roles, [(1, 0, 1, "4H"), (2, 0, 2, "6D")])
    assert delta[0] == 8 + 30  # 2 x 4 on a spy, 5 x 6 on a master


def test_double_agent_odd_secrets_cost() -> None:
    roles = [DOUBLE, SPY, MASTER, AGENT]
    delta, _ = walk(roles, [(1, 0, 1, "3H"), (2, 0, 2, "5D")], scores=[200, 0, 0, 0])
    assert delta[0] == -9 - 30  # 3 x 3 on a spy, 6 x 5 on a master


def test_double_agent_gains_on_a_master_stop_when_either_is_arrested() -> None:
    roles = [DOUBLE, SPY, MASTER, AGENT]
    delta, _ = walk(roles, [(1, 3, 0, "JS"), (2, 0, 2, "6D"), (3, 0, 2, "7H")], scores=[100] * 4)
    # Arrested (-16, floored only at zero), then the even 6♦ on the master earns nothing (the
    # double agent is arrested); the odd 7♥ still costs 6 x 7 (only the master's arrest stops it).
    assert delta[0] == -16 - 42


def test_double_agent_rejected_by_spy_and_master() -> None:
    roles = [DOUBLE, SPY, MASTER, AGENT]
    delta, _ = walk(roles, [(1, 1, 0, "AH"), (2, 2, 0, "2D")])
    assert delta[0] == -8 - 16  # negative allowed


# ----------------------------------------------------------------- general


def test_plays_on_oneself_score_nothing() -> None:
    delta, w = walk([SPY, MASTER, AGENT, CIVILIAN], [(1, 0, 0, "9H")])
    assert delta == [0, 0, 0, 40] and [c.seat for c in w.changes] == [3]


def test_police_from_a_non_agent_arrests_nobody() -> None:
    delta, _ = walk([MASTER, SPY, AGENT, CIVILIAN], [(1, 0, 1, "KS"), (1, 3, 1, "JC")])
    assert delta == [0, 0, 0, 40]


def test_floors_use_the_running_score_in_play_order() -> None:
    # The master earns 9 in turn 1, then its rejection of a spy in turn 2 takes 8 of it.
    roles = [MASTER, SPY, AGENT, CIVILIAN]
    delta, w = walk(roles, [(1, 1, 0, "9H"), (2, 0, 1, "AC")])
    assert delta[0] == 1 and [c.points for c in w.changes if c.seat == 0] == [9, -8]
    delta, w = walk(roles, [(1, 0, 1, "AC"), (2, 1, 0, "9H")])
    assert delta[0] == 9  # rejected first with nothing to lose: the loss takes nothing
