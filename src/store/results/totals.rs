//! The running totals per player and board (`player_game_stats`: played, won, points, abandoned),
//! counted again from the stored results for the players a change touched: never adjusted by
//! arithmetic, so they cannot drift from the results they count.

use diesel::sql_types::{Array, Text, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use super::Board;
use crate::store::columns::GameColumn;
use crate::store::StoreError;

/// The results a player's totals count on a board: each finished seat (played, won, points) and
/// each seat of a match abandoned after play began (abandoned), an anonymous seat being nobody's;
/// the name shown is the one of the player's latest ended result. `$1` is the board's game, `$3`
/// its household, `SEATS` the seats counted with their matches: every seat, or the named
/// players' (see [`recount_statement`]).
const COUNTED: &str = "SELECT m.game, s.player_key, \
            (array_agg(s.player_name ORDER BY coalesce(m.finished_at, a.abandoned_at) DESC, \
                                              m.id DESC))[1] AS player_name, \
            count(*) FILTER (WHERE m.status = 'finished') AS played, \
            count(*) FILTER (WHERE m.status = 'finished' AND s.winner) AS won, \
            coalesce(sum(s.final_score) FILTER (WHERE m.status = 'finished'), 0) AS score_sum, \
            count(*) FILTER (WHERE m.status = 'abandoned') AS abandoned, m.household \
     FROM SEATS \
     LEFT JOIN LATERAL (SELECT * FROM match_abandons a \
                        WHERE a.match_id = m.id OFFSET 0) AS a ON true \
     WHERE BOARD AND NOT s.anonymous \
       AND (m.status = 'finished' OR (m.status = 'abandoned' AND a.after_play)) \
     GROUP BY m.game, m.household, s.player_key";

/// The recount's text as each connection prepares it: for `keyed`, the players named in `$2`
/// (each once), else every player on the board (`$2` then unused).
///
/// The keyed recount runs at every finish, so it reads each player's own seats by their key,
/// then each seat's match and its abandonment by theirs: lateral lookups kept apart by
/// `OFFSET 0`, which the planner cannot turn into a scan of a whole table, and the board compared
/// with `IS NOT DISTINCT FROM`, which no index serves (the columns are never null). A connection
/// keeps its plan, and one made on a young database otherwise read every match of the game in
/// the space: a cost that grew with the tables, not with the players.
pub fn recount_statement(keyed: bool) -> String {
    let (seats, board, kept) = if keyed {
        (
            "(SELECT DISTINCT key FROM unnest($2::text[]) AS named (key)) AS k \
             CROSS JOIN LATERAL (SELECT * FROM match_seats s \
                                 WHERE s.player_key = k.key OFFSET 0) AS s \
             CROSS JOIN LATERAL (SELECT * FROM matches m \
                                 WHERE m.id = s.match_id OFFSET 0) AS m",
            "m.game IS NOT DISTINCT FROM $1 AND m.household IS NOT DISTINCT FROM $3",
            "p.player_key = ANY($2)",
        )
    } else {
        (
            "match_seats s JOIN matches m ON m.id = s.match_id",
            "m.game = $1 AND m.household = $3",
            "$2::text[] IS NOT NULL",
        )
    };
    let counted = COUNTED.replace("SEATS", seats).replace("BOARD", board);
    format!(
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
    )
}

/// Counts the totals of `keys` on `board` again (every player's, with `None`): a player whose
/// results all left (a rename, a reopened sheet) has no row any more.
pub(super) async fn recount(
    conn: &mut AsyncPgConnection,
    board: Board,
    keys: Option<&[String]>,
) -> Result<(), StoreError> {
    diesel::sql_query(recount_statement(keys.is_some()))
        .bind::<Text, _>(GameColumn(board.game))
        .bind::<Array<Text>, _>(keys.unwrap_or_default())
        .bind::<SqlUuid, _>(board.household)
        .execute(conn)
        .await?;
    Ok(())
}
