//! The BG Stats play file, in and out. Out: a finished match or sheet as one play, or every
//! result that counts in statistics as one file, streamed. In: a file of plays (the service's
//! own, or BG Stats' export as far as its fields map) becomes finished score sheets, each play
//! all or nothing, and a report says what was created, what was already here and what was
//! skipped, and why.
//!
//! Each file answers one question: what the file looks like as this service writes it, with the
//! `referee` key that carries what BG Stats' fields cannot (`file`); how a match, a sheet or
//! everything becomes that file (`export`); what an import reads and how the file as a whole is
//! checked (`read`); how one play becomes a closed sheet or a reason to skip it (`plan`); and how
//! the planned plays are written and reported (`import`). Callers use what is re-exported here.

mod export;
mod file;
mod import;
mod plan;
mod read;

pub use export::{everything, one};
pub use file::{
    BgStatsFile, BgStatsGame, BgStatsNamed, BgStatsPlay, BgStatsPlayer, BgStatsScore, RefereePlay,
    RefereeSeat,
};
pub use import::{import, ImportReport, ImportedPlay, ImportedPlayer, PlayOutcome};
pub use plan::SkipReason;
pub use read::{
    BgStatsImport, ImportGame, ImportPlay, ImportPlayer, ImportScore, IMPORT_BYTES, IMPORT_PLAYS,
    LENIENT_SCHEMAS,
};
