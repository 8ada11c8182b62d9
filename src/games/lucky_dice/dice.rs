//! The equipment of Lucky Dice: dice symbols and coasters.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One of the six lucky symbols printed on the dice and coasters (RULINGS 3.1 order).
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
#[schema(example = "pig")]
#[schema(as = LuckyDiceSymbol)]
pub enum Symbol {
    /// Four-leaf clover (s0).
    Clover,
    /// Lucky pig (s1).
    Pig,
    /// Beckoning cat, maneki-neko (s2).
    Cat,
    /// Lucky penny (s3).
    Penny,
    /// Horseshoe (s4).
    Horseshoe,
    /// Hand of Fatima, hamsa (s5).
    Hamsa,
}

impl Symbol {
    /// Every symbol in RULINGS 3.1 order: the faces of every die, in die-face index order.
    pub const ALL: [Symbol; 6] = [
        Symbol::Clover,
        Symbol::Pig,
        Symbol::Cat,
        Symbol::Penny,
        Symbol::Horseshoe,
        Symbol::Hamsa,
    ];

    /// 0 for clover … 5 for hamsa.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A coaster: a symbol printed on its left and one on its right.
#[derive(
    Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[schema(example = json!({"left": "clover", "right": "pig"}))]
#[schema(as = LuckyDiceCoaster)]
pub struct Coaster {
    /// Dice showing this symbol go to the player on the left (the next seat clockwise).
    pub left: Symbol,
    /// Dice showing this symbol go to the player on the right (the previous seat).
    pub right: Symbol,
}

/// RULINGS 3.1 / D1 (inferred): left = s_i, right = s_(i+k mod 6) for i = 0..5, k = 1, 2, 3.
/// Every symbol is 3× left and 3× right; the 15 unordered pairs appear, the 3 opposite pairs twice.
pub fn balanced_coaster_set() -> Vec<Coaster> {
    let mut set = Vec::with_capacity(18);
    for i in 0..6 {
        for k in 1..=3 {
            set.push(Coaster {
                left: Symbol::ALL[i],
                right: Symbol::ALL[(i + k) % 6],
            });
        }
    }
    set
}
