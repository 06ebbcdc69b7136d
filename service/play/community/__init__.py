"""The community: ratings per game, profiles and leaderboards. The interface other families
use: a player's rating in a game (`standing(session, kind, player_rater(player_id))`; a
seat's rated player is `rater_of(seat)`, a bot level's "bot:normal"; None before their first
rated game), their reliability and quickness (`activity(session, player_id)`), and the end
of a game rated (`rate_end`, called by service.play.time.ending)."""
from .activity import Activity, activity, measure
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
    read_rated,
    standing,
    standings_of,
)
from .rebuild import rebuild

__all__ = ["MODEL", "PROVISIONAL_UNTIL", "Activity", "Board", "BoardLine", "GameRating",
           "NoSuchBoard", "Profile", "Standing", "activity", "board", "hide_profile",
           "leaderboard", "measure", "places", "player_rater", "profile", "profile_setting",
           "rate_end", "rated_games", "rater_of", "read_rated", "rebuild", "standing",
           "standings_of"]
