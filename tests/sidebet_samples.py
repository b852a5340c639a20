"""Side-bet definitions several tests read, written once: their shapes are what the tests
are about (an outcome impossible from one deck; counting past the work bound)."""

#: Blackjack's first two cards: an identical pair cannot happen with one deck (the one card
#: of each rank and suit), and is paid from two decks on; any other pair after it.
IDENTICAL_THEN_ANY_PAIR = b"""\
bet: identical
title: Identical Pair
game: blackjack
outcomes:
  - name: Identical pair
    when:
      same_card: [player_1, player_2]
    pays: 25 to 1
  - name: Any pair
    when:
      same_rank: [player_1, player_2]
    pays: 5 to 1
"""

#: A flush of each baccarat hand's three cards with its win: its par sheet is within the
#: work bound at any deck count, its effects of removal (41 counts: each kind of card less,
#: and the full shoe) are not (gamecore.sidebets.work).
SIX_SUITED = """\
bet: six_suited
game: baccarat
decks: 8
outcomes:
  - name: Player flush
    when:
      same_suit: [player_1, player_2, player_3]
      winner: player
    pays: 20 to 1
  - name: Banker flush
    when:
      same_suit: [banker_1, banker_2, banker_3]
      winner: banker
    pays: 20 to 1
"""
