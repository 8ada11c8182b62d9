//! The running totals per player and board (`player_game_stats`: played, won, points, abandoned),
//! counted again from the stored results for the players a change touched: never adjusted by
//! arithmetic, so they cannot drift from the results they count.

use diesel::sql_types::{Array, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::Board;
use crate::store::columns::GameColumn;
use crate::store::StoreError;

/// The results a player's totals count on a board: each finished seat (played, won, points) and
/// each seat of a match abandoned after play began (abandoned), an anonymous seat being nobody's; the name shown is the one of the
/// player's latest ended result. `$1` is the board's game, `$2` the keys (or null for all), `$3`
/// its household.
const COUNTED: &str = "SELECT m.game, s.player_key, \
            (array_agg(s.player_name ORDER BY coalesce(m.finished_at, a.abandoned_at) DESC, \
                                              m.id DESC))[1] AS player_name, \
            count(*) FILTER (WHERE m.status = 'finished') AS played, \
            count(*) FILTER (WHERE m.status = 'finished' AND s.winner) AS won, \
            coalesce(sum(s.final_score) FILTER (WHERE m.status = 'finished'), 0) AS score_sum, \
            count(*) FILTER (WHERE m.status = 'abandoned') AS abandoned, m.household \
     FROM match_seats s JOIN matches m ON m.id = s.match_id \
     LEFT JOIN match_abandons a ON a.match_id = m.id \
     WHERE m.game = $1 AND m.household = $3 AND KEYS AND NOT s.anonymous \
       AND (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
     GROUP BY m.game, m.household, s.player_key";

/// Counts the totals of `keys` on `board` again (every player's, with `None`): a player whose
/// results all left (a rename, a reopened sheet) has no row any more.
pub(super) async fn recount(
    conn: &mut AsyncPgConnection,
    board: Board,
    keys: Option<&[String]>,
) -> Result<(), StoreError> {
    let (only, keys) = match keys {
        Some(keys) => ("s.player_key = ANY($2)", keys),
        None => ("$2::text[] IS NOT NULL", &[][..]),
    };
    let counted = COUNTED.replace("KEYS", only);
    let kept = only.replace("s.player_key", "p.player_key");
    diesel::sql_query(format!(
        "WITH counted AS ({counted}), \
              gone AS (DELETE FROM player_game_stats p \
                       WHERE p.game = $1 AND p.household = $3 AND {kept} \
                         AND NOT EXISTS (SELECT 1 FROM counted c \
                                         WHERE c.player_key = p.player_key)) \
         INSERT INTO player_game_stats \
             (game, player_key, player_name, played, won, score_sum, abandoned, household) \
         SELECT * FROM counted \
         ON CONFLICT (game, player_key) DO UPDATE SET \
             player_name = excluded.player_name, played = excluded.played, \
             won = excluded.won, score_sum = excluded.score_sum, \
             abandoned = excluded.abandoned"
    ))
    .bind::<Text, _>(GameColumn(board.game))
    .bind::<Array<Text>, _>(keys)
    .bind::<SqlUuid, _>(board.household)
    .execute(conn)
    .await?;
    Ok(())
}
