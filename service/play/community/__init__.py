"""The community: ratings per game, profiles and leaderboards; standing challenges, ladders,
correspondence tournaments (Swiss and round robin), leagues (seasons of round robins in
divisions, with promotion and relegation) and reported chat lines (blocks live with the players, since invitations and the chat obey
them). It sits above the families that start and end games: it starts games through the
players' `open_game`, and hears of a game's end through the hooks it registers, as it is
imported, in service.play.time.ending (its rating, its ladder, its tournament's next round), in the
transaction that ends
it. The interface: a player's rating in a game (`standing(session, kind,
player_rater(player_id))`; a bot level's rated player is "bot:normal"), their reliability
and quickness (`activity(session, player_id)`)."""
from service.play.players import when_a_player_is_erased
from service.play.time import ending

from . import (
    challenges,
    follows,
    invites,
    ladders,
    leagues,
    leagueshow,
    leaving,
    reports,
    strength,
    tournaments,
)
from .activity import Activity, activity, measure
from .challenges import BadChallenge, Posted, Terms, read_terms
from .invites import MAX_INVITEES, InviteClosed
from .ladders import LadderRefused
from .pairing import round_robin, swiss
from .profiles import (
    Board,
    BoardLine,
    GameRating,
    NoSuchBoard,
    Profile,
    board,
    hide_profile,
    profile,
    profile_setting,
    rated_games,
)
from .ratings import (
    MODEL,
    PROVISIONAL_UNTIL,
    Standing,
    leaderboard,
    places,
    player_rater,
    rate_end,
    rater_of,
    standing,
    standings_of,
)
from .rebuild import rebuild
from .reports import BadReport
from .show import Listed, RoundView, Table, TournamentView, listed, show
from .standings import Line, line_text, points_text
from .tournaments import (
    FORMATS,
    BadTournament,
    Created,
    NoSuchTournament,
    advance,
    advance_due,
    create,
    mark_due,
)

# a game's end rates it, in the transaction that ends it (ladders register their own hook)
ending.when_a_game_ends(rate_end)
# and a tournament's game marks its tournament due (the next round starts after the commit)
ending.when_a_game_ends(mark_due)
# a league's season ends with its last division's tournament, in the transaction that ends it
tournaments.when_a_tournament_ends(leagues.season_over)
# an erased player's ladders, tournaments and leagues, in the erasure's transaction
when_a_player_is_erased(leaving.erased)

__all__ = ["MODEL", "PROVISIONAL_UNTIL", "Activity", "BadChallenge", "BadReport", "Board",
           "BoardLine", "GameRating", "InviteClosed", "LadderRefused", "MAX_INVITEES", "NoSuchBoard", "Posted", "Profile",
           "Standing", "Terms", "activity", "board", "challenges", "follows", "hide_profile", "invites", "ladders", "leaving",
           "leaderboard", "leagues", "leagueshow", "measure", "places", "player_rater", "profile", "profile_setting",
           "rate_end", "rated_games", "rater_of", "read_terms", "rebuild", "reports",
           "standing", "standings_of", "strength", "FORMATS", "BadTournament", "Created", "Line",
           "Listed", "NoSuchTournament", "RoundView", "Table", "TournamentView", "advance", "advance_due",
           "create", "line_text", "listed", "points_text", "round_robin", "show", "swiss"]
