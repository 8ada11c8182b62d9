//! Typed text columns: a match's status, kind, randomness and game are read and written as Rust
//! values. A stored name this service does not know fails the read loudly instead of passing for
//! some default.

use std::fmt;

use diesel::deserialize::{self, FromSql};
use diesel::pg::{Pg, PgValue};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

use crate::games::GameKind;
use crate::vocabulary::{
    AbandonedBy, ChanceReporters, MatchKind, MatchStatus, RandomnessMode, SheetEntryKind,
    StoredName,
};

fn read_name<T: StoredName>(value: PgValue<'_>, what: &str) -> deserialize::Result<T> {
    let text = <String as FromSql<Text, Pg>>::from_sql(value)?;
    T::from_stored(&text).ok_or_else(|| format!("unknown stored {what} {text:?}").into())
}

/// Maps a [`StoredName`] enum to a text column; comparing with a `&str` compares the stored name.
macro_rules! text_column {
    ($($name:ident: $what:literal),+ $(,)?) => {$(
        impl ToSql<Text, Pg> for $name {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
                <str as ToSql<Text, Pg>>::to_sql(StoredName::as_str(*self), out)
            }
        }

        impl FromSql<Text, Pg> for $name {
            fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
                read_name(value, $what)
            }
        }
    )+};
}

text_column!(
    MatchStatus: "status",
    MatchKind: "kind",
    RandomnessMode: "randomness",
    ChanceReporters: "chance reporters",
    AbandonedBy: "abandoned by",
    SheetEntryKind: "sheet entry kind",
);

/// A match's game as stored: its slug. [`GameKind`] belongs to the rules core, which knows
/// nothing of the database, so its column mapping lives on this wrapper.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = Text)]
pub struct GameColumn(pub GameKind);

impl GameColumn {
    pub fn kind(self) -> GameKind {
        self.0
    }
}

impl From<GameKind> for GameColumn {
    fn from(kind: GameKind) -> Self {
        GameColumn(kind)
    }
}

impl fmt::Display for GameColumn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.slug())
    }
}

impl ToSql<Text, Pg> for GameColumn {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <str as ToSql<Text, Pg>>::to_sql(self.0.slug(), out)
    }
}

impl FromSql<Text, Pg> for GameColumn {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        let text = <String as FromSql<Text, Pg>>::from_sql(value)?;
        GameKind::from_slug(&text)
            .map(GameColumn)
            .ok_or_else(|| format!("unknown stored game {text:?}").into())
    }
}
