//! Statistics over finished matches, hosted and score sheets alike: per player and game (played,
//! won, win rate, average and best score, winning streaks, the game's brag figures) and a
//! leaderboard per game. Players are identified by name, compared by
//! [`crate::vocabulary::name_key`]: NFKC, ignoring case and invisible characters, look-alike
//! letters as one.
//!
//! A match or sheet abandoned after play began (a seat moved, a round was entered) counts as
//! `abandoned` in each seated player's record: not played, not won, not lost, but there for
//! anyone to see, and it ends a winning streak (it is not a win). One abandoned before play
//! counts nowhere (docs/security.md, "What statistics vouch for").

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::{GameKind, Highlights};
use crate::problem::Problem;
use crate::records::check_player_filter;
use crate::store::stat_reads as q;
use crate::store::Store;
use crate::vocabulary::{normalise_name, Space};

pub use crate::store::stat_reads::{LeaderboardRow, Period};

/// One player's record over a set of finished matches.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Record {
    /// Finished matches.
    pub played: i64,
    pub won: i64,
    /// Won ÷ played (0 when nothing was played). Shared wins count as wins.
    pub win_rate: f64,
    /// Mean final score (per game only: scores of different games do not add up).
    pub average_score: Option<f64>,
    /// Best final score: the highest, or the lowest where the lowest total wins.
    pub best_score: Option<i64>,
    /// Wins in a row up to the most recent match (an abandoned match ends a run).
    pub current_streak: i64,
    pub longest_streak: i64,
    /// Matches abandoned after play began (by their owner), not counted in `played`.
    pub abandoned: i64,
    /// The game's brag figures added up (e.g. `jackpots_jack`); `best_*` figures are maxima.
    #[schema(value_type = std::collections::BTreeMap<String, i64>)]
    pub highlights: Highlights,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameRecord {
    pub game: GameKind,
    #[serde(flatten)]
    pub record: Record,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerStats {
    /// The name as last written.
    pub player: String,
    /// All games together (no scores: they do not add up across games).
    pub overall: Record,
    pub games: Vec<GameRecord>,
}

/// A finished seat of the player, in the order the matches ended.
struct Outcome {
    game: GameKind,
    lowest_wins: bool,
    name: String,
    score: i64,
    winner: bool,
    highlights: Highlights,
    /// Abandoned after play began: no score, no result.
    abandoned: bool,
}

fn record(all: &[&Outcome], with_scores: bool) -> Record {
    // An abandoned match is not a win: it ends a run of wins, so that abandoning a match about to
    // be lost cannot keep a streak alive.
    let mut longest = 0;
    let mut run = 0;
    for outcome in all {
        run = if outcome.winner && !outcome.abandoned {
            run + 1
        } else {
            0
        };
        longest = longest.max(run);
    }
    let abandoned = all.iter().filter(|o| o.abandoned).count() as i64;
    let outcomes: Vec<&Outcome> = all.iter().copied().filter(|o| !o.abandoned).collect();
    let played = outcomes.len() as i64;
    let won = outcomes.iter().filter(|o| o.winner).count() as i64;
    let mut highlights = Highlights::new();
    for outcome in &outcomes {
        for (key, value) in &outcome.highlights {
            let slot = highlights
                .entry(key.clone())
                .or_insert(if key.starts_with("best_") {
                    i64::MIN
                } else {
                    0
                });
            *slot = if key.starts_with("best_") {
                (*slot).max(*value)
            } else {
                *slot + value
            };
        }
    }
    Record {
        played,
        won,
        win_rate: if played == 0 {
            0.0
        } else {
            won as f64 / played as f64
        },
        average_score: (with_scores && played > 0)
            .then(|| outcomes.iter().map(|o| o.score as f64).sum::<f64>() / played as f64),
        best_score: outcomes
            .iter()
            .filter(|_| with_scores)
            .max_by_key(|o| if o.lowest_wins { -o.score } else { o.score })
            .map(|o| o.score),
        current_streak: run,
        longest_streak: longest,
        abandoned,
        highlights,
    }
}

#[tracing::instrument(skip_all, fields(player = name, game = ?game))]
pub async fn player(
    store: &Store,
    space: Space,
    name: &str,
    game: Option<GameKind>,
    period: Period,
) -> Result<PlayerStats, Problem> {
    check_player_filter(name)?;
    let seats = store
        .read(async |conn| q::finished_seats(conn, space, name, game, period).await)
        .await?;
    let outcomes: Vec<Outcome> = seats
        .into_iter()
        .map(|seat| Outcome {
            game: seat.game.kind(),
            lowest_wins: seat.lowest_wins == Some(true),
            name: seat.player_name,
            score: seat.final_score.unwrap_or_default(),
            winner: seat.winner.unwrap_or_default(),
            highlights: seat
                .highlights
                .and_then(|h| serde_json::from_value(h).ok())
                .unwrap_or_default(),
            abandoned: seat.abandoned,
        })
        .collect();
    let all: Vec<&Outcome> = outcomes.iter().collect();
    let games = GameKind::ALL
        .iter()
        .filter_map(|&kind| {
            let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.game == kind).collect();
            (!mine.is_empty()).then(|| GameRecord {
                game: kind,
                record: record(&mine, true),
            })
        })
        .collect();
    Ok(PlayerStats {
        player: outcomes
            .last()
            .map(|o| o.name.clone())
            .unwrap_or_else(|| normalise_name(name)),
        overall: record(&all, false),
        games,
    })
}

/// Players of a game ranked by wins, then win rate, then games played.
#[tracing::instrument(skip_all, fields(game = game.slug(), limit = limit))]
pub async fn leaderboard(
    store: &Store,
    space: Space,
    game: GameKind,
    limit: i64,
    period: Period,
) -> Result<Vec<LeaderboardRow>, Problem> {
    Ok(store
        .read(async |conn| q::leaderboard(conn, space, game, limit, period).await)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(score: i64, winner: bool, lowest_wins: bool, jackpots: i64) -> Outcome {
        let mut highlights = Highlights::new();
        highlights.insert("jackpots".into(), jackpots);
        highlights.insert("best_lei".into(), score);
        Outcome {
            game: GameKind::LuckyJack,
            lowest_wins,
            name: "Ann".into(),
            score,
            winner,
            highlights,
            abandoned: false,
        }
    }

    #[test]
    fn streaks_count_consecutive_wins_and_the_current_run_ends_at_the_last_match() {
        let games = [
            outcome(5, true, false, 1),
            outcome(3, true, false, 0),
            outcome(1, false, false, 2),
            outcome(9, true, false, 1),
        ];
        let refs: Vec<&Outcome> = games.iter().collect();
        let r = record(&refs, true);
        assert_eq!((r.played, r.won), (4, 3));
        assert_eq!((r.current_streak, r.longest_streak), (1, 2));
        assert_eq!(r.win_rate, 0.75);
        assert_eq!(r.average_score, Some(4.5));
        assert_eq!(r.best_score, Some(9));
        assert_eq!(r.highlights["jackpots"], 4, "counts add up");
        assert_eq!(
            r.highlights["best_lei"], 9,
            "best_ figures keep the maximum"
        );
    }

    #[test]
    fn where_the_lowest_total_wins_the_best_score_is_the_lowest() {
        let games = [outcome(40, false, true, 0), outcome(12, true, true, 0)];
        let refs: Vec<&Outcome> = games.iter().collect();
        assert_eq!(record(&refs, true).best_score, Some(12));
    }

    #[test]
    fn an_abandoned_match_is_counted_apart_and_ends_a_winning_streak() {
        let mut games = [
            outcome(5, true, false, 1),
            outcome(3, false, false, 0),
            outcome(9, true, false, 1),
        ];
        games[1].abandoned = true;
        let refs: Vec<&Outcome> = games.iter().collect();
        let r = record(&refs, true);
        assert_eq!((r.played, r.won, r.abandoned), (2, 2, 1));
        assert_eq!((r.current_streak, r.longest_streak), (1, 1));
        assert_eq!(r.win_rate, 1.0);
        assert_eq!(r.average_score, Some(7.0));
    }

    #[test]
    fn a_player_who_never_played_has_an_empty_record() {
        let r = record(&[], true);
        assert_eq!((r.played, r.win_rate, r.average_score), (0, 0.0, None));
    }
}
