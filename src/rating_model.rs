//! Skill ratings over finished results: the Weng-Lin model (Weng and Lin, "A Bayesian
//! Approximation Method for Online Ranking", 2011), Bradley-Terry with full pairing, the model
//! the OpenSkill family implements. Every player is a side of one (free-for-all), so 2 to 8
//! players rank in one update; equal ranks are ties. The arithmetic is the `skillratings`
//! crate's; this module fixes the parameters and the conservative value a ranking shows.
//! Method and parameters: docs/ratings.md.

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A player's skill: the estimate `mu` and its uncertainty `sigma`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Rating {
    /// The value a ranking shows: `mu - 3 sigma`, a skill the player very probably has at
    /// least, so that a newcomer with one lucky win does not top the table.
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// The model's parameters: OpenSkill's defaults, with no dynamics factor (`tau`), so a rating
/// only moves when its player plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// A new player's `mu`.
    pub mu: f64,
    /// A new player's `sigma`.
    pub sigma: f64,
    /// The skill difference that makes a win about 67% likely.
    pub beta: f64,
    /// The floor of the factor `sigma` shrinks by in one update (keeps it positive).
    pub kappa: f64,
}

impl Default for Model {
    fn default() -> Self {
        Self {
            mu: 25.0,
            sigma: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            kappa: 0.0001,
        }
    }
}

impl Model {
    /// The rating of a player with no rated result yet.
    pub fn initial(&self) -> Rating {
        Rating {
            mu: self.mu,
            sigma: self.sigma,
        }
    }

    /// The ratings after one result: `before[i]` finished at `ranks[i]` (1 is first; equal
    /// ranks tie). Fewer than two players change nothing.
    pub fn rate(&self, before: &[Rating], ranks: &[u32]) -> Vec<Rating> {
        assert_eq!(before.len(), ranks.len(), "one rank per player");
        if before.len() < 2 {
            return before.to_vec();
        }
        let sides: Vec<[WengLinRating; 1]> = before
            .iter()
            .map(|r| {
                [WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                }]
            })
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = sides
            .iter()
            .zip(ranks)
            .map(|(side, &rank)| (&side[..], MultiTeamOutcome::new(rank as usize)))
            .collect();
        let config = WengLinConfig {
            beta: self.beta,
            uncertainty_tolerance: self.kappa,
        };
        weng_lin_multi_team(&ranked, &config)
            .into_iter()
            .map(|side| Rating {
                mu: side[0].rating,
                sigma: side[0].uncertainty,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(n: usize) -> Vec<Rating> {
        vec![Model::default().initial(); n]
    }

    #[test]
    fn a_winner_gains_what_a_loser_loses_and_both_grow_more_certain() {
        let after = Model::default().rate(&fresh(2), &[1, 2]);
        assert!(after[0].mu > 25.0 && after[1].mu < 25.0, "{after:?}");
        assert!((after[0].mu - 25.0 + after[1].mu - 25.0).abs() < 1e-12);
        assert!(after.iter().all(|r| r.sigma < 25.0 / 3.0));
    }

    #[test]
    fn a_tie_between_equals_moves_no_mu() {
        let after = Model::default().rate(&fresh(3), &[1, 1, 1]);
        assert!(
            after.iter().all(|r| (r.mu - 25.0).abs() < 1e-12),
            "{after:?}"
        );
    }

    #[test]
    fn in_a_free_for_all_each_place_ranks_above_the_next() {
        let after = Model::default().rate(&fresh(8), &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert!(after.windows(2).all(|w| w[0].mu > w[1].mu), "{after:?}");
        assert!(after.windows(2).all(|w| w[0].ordinal() > w[1].ordinal()));
    }

    #[test]
    fn a_newcomer_shows_zero_and_one_player_rates_nobody() {
        assert!(Model::default().initial().ordinal().abs() < 1e-12);
        assert_eq!(Model::default().rate(&fresh(1), &[1]), fresh(1));
    }
}
