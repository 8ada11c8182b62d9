//! What the sheet endpoints take and answer: request bodies and the sheet as shown.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::games::{Seat, Standings};
use crate::payloads::{Json, Payloads};
use crate::records::{NewSeat, SeatInfo};
use crate::vocabulary::{MatchStatus, SheetEntryKind};

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreateSheet<P: Payloads = Json> {
    pub game: P::Game,
    /// The players, clockwise from seat 0 (as many as the game seats: see the catalogue).
    #[schema(min_items = 2, max_items = 8)]
    pub players: Vec<NewSeat>,
    /// The game's options (e.g. Lucky Jack's `rounds`); omitted fields take their defaults.
    pub options: Option<P::Options>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::append_entry)]
pub struct AppendEntry {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// The round in the game's terms (the game's `Tally`).
    #[schema(value_type = crate::payloads::any::AnyTally)]
    pub tally: Value,
    /// To correct an entry, its `seq`: this entry then replaces it for the same round.
    #[schema(minimum = 1)]
    pub corrects: Option<i64>,
    /// Free text kept with the entry (up to 500 characters).
    pub note: Option<String>,
}

/// Take the last round away: it was entered by mistake. Recorded as an entry (`removal`) that
/// supersedes the round's standing entry; nothing is deleted.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::remove_last_round)]
pub struct RemoveLastRound {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Why the round goes, kept with the removal (1 to 500 characters).
    #[schema(min_length = 1)]
    pub note: String,
}

/// A player's new name on a sheet.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::rename_sheet_player)]
pub struct RenameSheetPlayer {
    /// Checked like a new player's name: no two seats may be one player (look-alikes are one).
    #[schema(min_length = 1)]
    pub name: String,
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Free text kept with the rename (up to 500 characters).
    pub note: Option<String>,
}

/// End the sheet now, with the standings of the rounds entered so far.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = crate::request_examples::finish_sheet)]
pub struct FinishSheet {
    /// The sheet version the client last saw; a different current version is a 409.
    #[schema(minimum = 0)]
    pub expected_version: Option<i64>,
    /// Free text kept with the finish (up to 500 characters).
    pub note: Option<String>,
}

/// Who made an entry: only the sheet's owner token writes to a sheet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EntryAuthor {
    #[default]
    Owner,
}

/// A rename as its entry records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeatRenamed {
    pub seat: Seat,
    /// The name before.
    pub old_name: String,
    /// The name after.
    pub new_name: String,
}

/// One entry as typed, for the audit trail.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetEntry<P: Payloads = Json> {
    pub seq: i64,
    /// What the entry records: a round (or a correction of one), the last round's `removal`, a
    /// player's `rename`, or an early `finish`.
    #[serde(default)]
    #[schema(required = true)]
    pub kind: SheetEntryKind,
    /// A round: the round it describes. A removal: the round it took away. A rename or a finish:
    /// how many rounds stood then.
    pub round: i32,
    /// The round in the game's terms; `null` for the entries that are not rounds.
    #[schema(required = true)]
    pub tally: Option<P::Tally>,
    /// The entry this one corrected (a removal: the standing entry of the round it took away).
    pub corrects: Option<i64>,
    /// The later entry that corrected (or removed) this one; absent while it stands.
    pub superseded_by: Option<i64>,
    pub note: Option<String>,
    pub at: DateTime<Utc>,
    /// Who made it.
    #[serde(default)]
    #[schema(required = true)]
    pub by: EntryAuthor,
    /// A rename's seat, old name and new name.
    #[serde(default)]
    pub renamed: Option<SeatRenamed>,
}

/// A round as it stands after corrections, scored.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetRound<P: Payloads = Json> {
    pub round: i32,
    /// The entry that recorded it (the latest correction, if any).
    pub entry: i64,
    /// Points per seat this round.
    pub points: Vec<i64>,
    /// The game's breakdown of the round.
    pub score: P::TallyScore,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct SheetDetail<P: Payloads = Json> {
    pub id: Uuid,
    pub game: P::Game,
    pub rules_version: String,
    pub options: P::Options,
    pub status: MatchStatus,
    /// Number of entries; send it back as `expected_version`.
    #[schema(minimum = 0)]
    pub version: i64,
    pub players: Vec<SeatInfo>,
    pub rounds: Vec<SheetRound<P>>,
    pub standings: Standings,
    /// Names of the winners, once the game's end rule is met or the owner finished it early.
    pub winners: Vec<String>,
    /// Whether the owner ended the sheet before the game's end rule was met
    /// (`POST /v1/sheets/{id}/finish`): its result is the standings of the rounds entered.
    #[serde(default)]
    #[schema(required = true)]
    pub finished_early: bool,
    /// When it was finished early (its `finish` entry's time); `null` otherwise.
    #[serde(default)]
    pub finished_early_at: Option<DateTime<Utc>>,
    /// Every entry ever made, corrections included.
    pub entries: Vec<SheetEntry<P>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Once abandoned: by whom, when, at which version (entries), and whether it had an entry
    /// (then it counts in each player's record as `abandoned`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<crate::store::stat_reads::Abandoned>,
    /// The sheet this one plays again (`POST /v1/sheets/{id}/rematch`), if any.
    #[serde(default)]
    pub rematch_of: Option<Uuid>,
    /// The sheet that plays this one again, once the owner started it: a page showing this sheet
    /// can follow the evening to it.
    #[serde(default)]
    pub rematch: Option<Uuid>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(bound = "")]
#[schema(bound = "P: Payloads")]
pub struct CreatedSheet<P: Payloads = Json> {
    /// Repeats the sheet's game, so that the reply can be told apart by it like the others.
    pub game: P::Game,
    /// Needed to add entries. Shown only once.
    pub owner_token: String,
    pub sheet: SheetDetail<P>,
}

crate::one_of_games!(
    /// A score sheet to start, of whichever game `game` names.
    AnyCreateSheet = CreateSheet,
    example = crate::request_examples::create_sheet_of
);
crate::one_of_games!(AnyCreatedSheet = CreatedSheet);
crate::one_of_games!(
    /// A score sheet of whichever game.
    AnySheetDetail = SheetDetail
);
