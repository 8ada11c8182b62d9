//! The service's vocabulary: the closed sets of names a match or sheet is stored and sent under
//! (status, kind, randomness, chance reporters), the caps on what one record may hold, and the
//! rules that turn a typed player name into the name shown and the key that identifies a player.
//!
//! Every other layer may use this module; it uses no other module of the crate, so storage, the
//! services and the HTTP layer share one vocabulary without depending on each other.

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use utoipa::ToSchema;

/// The names a closed set of values is stored and sent under (the same for both): the store maps
/// columns through them, and an unknown stored name is an error, never a default.
pub trait StoredName: Copy + Sized + 'static {
    const ALL: &'static [Self];
    fn as_str(self) -> &'static str;
    fn from_stored(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|value| value.as_str() == name)
    }
}

/// Defines a closed set of stored names: the enum, its serde names and its [`StoredName`].
macro_rules! stored_names {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
        #[derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow)]
        #[diesel(sql_type = diesel::sql_types::Text)]
        // The stored names are the serde names (a test checks it); utoipa reads `rename_all`.
        #[serde(rename_all = "snake_case")]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl StoredName for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                StoredName::as_str(self)
            }
        }
    };
}

stored_names! {
    /// Who decides chance: the server from a secret seed, or the physical table, which reports it.
    #[derive(Default)]
    pub enum RandomnessMode {
        /// The server deals and rolls from a per-match seed, published as a SHA-256 commitment at
        /// creation and revealed when the match is over.
        #[default]
        Server = "server",
        /// Players use real cards and dice and report each outcome to `/chance`.
        Table = "table",
    }
}

stored_names! {
    /// Who may report the chance outcomes of a table-randomness match. The owner always may; the
    /// rest is the table's choice.
    #[derive(Default)]
    pub enum ChanceReporters {
        /// Only the owner (a referee or host at the table) reports outcomes.
        Owner = "owner",
        /// The owner; a seat reports the outcomes of its own action (its draw, its roll) and the
        /// dealer's seat the deal and shared outcomes (a flip, a shared die).
        #[default]
        OwnerAndActingSeat = "owner_and_acting_seat",
        /// The owner and every seat report any outcome (a table whose players trust each other).
        AnySeat = "any_seat",
    }
}

stored_names! {
    /// How a match is recorded.
    pub enum MatchKind {
        /// Hosted by the service, which referees every move.
        Hosted = "hosted",
        /// Played with real cards and dice and recorded round by round on a score sheet.
        Sheet = "sheet",
    }
}

stored_names! {
    pub enum MatchStatus {
        InProgress = "in_progress",
        Finished = "finished",
        /// Given up by its owner: kept in history and listings, left out of statistics, and
        /// closed to moves and entries.
        Abandoned = "abandoned",
    }
}

stored_names! {
    /// Who gave up an abandoned match or sheet.
    pub enum AbandonedBy {
        /// The holder of its owner token (the only one who may today).
        Owner = "owner",
    }
}

stored_names! {
    /// What a score sheet's entry records. Entries are never rewritten: each mending is one more.
    #[derive(Default)]
    pub enum SheetEntryKind {
        /// A round in the game's terms (`tally`), or a correction of one (`corrects`).
        #[default]
        Round = "round",
        /// The last round taken away (`corrects` names its standing entry, `round` the round).
        Removal = "removal",
        /// A player renamed (`renamed`: the seat, the old name and the new).
        Rename = "rename",
        /// The owner ended the sheet early with the standings so far.
        Finish = "finish",
        /// A play brought in from another score keeper, closed as it arrived: `imported` holds
        /// its final standings.
        Import = "import",
    }
}

impl MatchStatus {
    pub fn of_over(over: bool) -> Self {
        if over {
            MatchStatus::Finished
        } else {
            MatchStatus::InProgress
        }
    }
}

/// What one record may hold: every cap on what a client writes into a sheet or a match, in one
/// place (listed in docs/security.md). Past one, the write is refused with `422 limit_exceeded`
/// naming the limit and its maximum.
pub mod limits {
    /// Characters of a player's name, once normalised.
    pub const NAME_CHARS: usize = 64;
    /// Players named by one bring-in of public records into a household.
    pub const BRING_IN_PLAYERS: usize = 64;
    /// Entries of one score sheet, corrections, removals, renames and early finishes included.
    pub const SHEET_ENTRIES: usize = 500;
    /// Corrections of one round of a score sheet.
    pub const CORRECTIONS_PER_ROUND: usize = 20;
    /// Characters of any one text field of a tally (e.g. a Lucky Luau lei or player label).
    pub const TALLY_TEXT_CHARS: usize = 500;
    /// Characters of an entry's note.
    pub const NOTE_CHARS: usize = 500;
    /// Plies (moves and chance outcomes) of one hosted match. A match at this version takes no
    /// more moves or chance reports (`409 match_too_long`); one move may still add a few chance
    /// plies past it. A rulebook game takes a few hundred to a few thousand plies even when every
    /// seat picks its moves at random; only the longest targets the options allow, played that
    /// badly, come near it (docs/security.md has the figures). Every read of a match replays at
    /// most this many plies.
    pub const MATCH_PLIES: i64 = 20_000;
    /// Entries of one page of a match's log (`GET /v1/matches/{id}/log?limit=`), and the page
    /// size when `limit` is left out.
    pub const LOG_PAGE_MAX: i64 = 1_000;
    pub const LOG_PAGE_DEFAULT: i64 = 200;
}

/// Characters that show nothing: whitespace, controls, and the default-ignorable format
/// characters (zero-width spaces and joiners, bidi marks and isolates, variation selectors,
/// Hangul fillers, the soft hyphen, the BOM). A name made only of them names no one.
fn is_invisible(c: char) -> bool {
    c.is_control() || is_blank(c)
}

/// Whitespace and the default-ignorable characters, which trimming removes; other control
/// characters are not trimmed but refused.
fn is_blank(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// A name as it is stored and shown: Unicode NFKC (so `ｆｕｌｌ-width` and `ﬁ` ligatures read as
/// the letters they look like), then trimmed of whitespace and invisible format characters.
pub fn normalise_name(name: &str) -> String {
    name.nfkc()
        .collect::<String>()
        .trim_matches(is_blank)
        .to_owned()
}

/// Which scheme [`name_key`] computes keys by. Keys stored under an older scheme are recomputed
/// from the stored names once, at start-up (`store::rekey`), so bump this whenever the key
/// changes. Scheme 3: a capital whose small form looks like another Latin letter (Greek `Ν`,
/// `Υ`) is read as the Latin capital it looks like ([`two_faced_capital`]).
pub const NAME_KEY_SCHEME: i32 = 3;

/// Where records and their players live: the public space (every record made without a
/// household's key), or one household's. A household's players are its own: their keys carry the
/// household's id, so two households' `Mum` are two players, with two histories and two ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Space(uuid::Uuid);

/// Between a household's id and a name's key in a player key: a control character, which
/// [`name_key`] never keeps, so no name's key is ever a household player's.
const SPACE_SEPARATOR: char = '\u{1f}';

impl Space {
    pub const PUBLIC: Space = Space(uuid::Uuid::nil());

    /// The space of a record stored with `household` (the nil id: the public one).
    pub fn of(household: uuid::Uuid) -> Space {
        Space(household)
    }

    /// The id stored with the space's records: the household's, or nil.
    pub fn id(self) -> uuid::Uuid {
        self.0
    }

    pub fn is_public(self) -> bool {
        self.0.is_nil()
    }

    /// The player `name` is in this space: its [`name_key`], behind the household's id.
    pub fn player_key(self, name: &str) -> String {
        self.scoped(name_key(name))
    }

    /// An `Idempotency-Key`'s namespace for creating a `what` in this space: the same key sent
    /// in two spaces is two requests.
    pub fn scope(self, what: &str) -> String {
        if self.is_public() {
            what.to_owned()
        } else {
            format!("{what}/{}", self.0)
        }
    }

    /// A name's key as a player key of this space.
    pub fn scoped(self, key: String) -> String {
        if self.is_public() {
            key
        } else {
            format!("{}{SPACE_SEPARATOR}{key}", self.0)
        }
    }
}

/// A player's identity: the normalised name without its invisible characters, each run of
/// spaces made one space, lower-cased (`str::to_lowercase`, Unicode's full lower-case mapping,
/// close to but not exactly Unicode case folding), then reduced to its UTS #39 confusable
/// skeleton (`unicode_security::skeleton`, Unicode's confusables data), lower-cased again and
/// normalised again. `Dupe`, `dupe`, `ＤＵＰＥ`, `Du\u{200B}pe` and ` dupe ` are one player, and
/// so are `Ann` with a Latin, a Cyrillic (`А`) or a Greek (`Α`) capital; `Ann Lee` and `AnnLee`
/// are two. Statistics, histories and the player filters all compare these keys.
///
/// Case is folded *before* the skeleton, as UTS #39 advises for case-insensitive comparison:
/// the other way round, `I` (whose skeleton is `l`) would no longer be the same letter as `i`.
/// Folding first alone would lose the look-alikes that hold only in capitals (Cyrillic `В` is
/// `B`, but its small `в` looks like no Latin letter), so such a letter is first replaced by
/// the Latin letter its capital looks like ([`capital_look_alike`]); `l`, `1` and `|`, `0` and
/// `o`, `m` and `rn` are merged. A capital whose small form looks like *another* Latin letter
/// (Greek `Ν`, whose `ν` is `v`; `Υ`, whose `υ` is `u`) is read as written before case is
/// folded ([`two_faced_capital`]): `Νed` is `Ned` and `νed` is `ved`, as each looks.
pub fn name_key(name: &str) -> String {
    let shown: String = name
        .nfkc()
        .filter(|&c| c.is_whitespace() || !is_invisible(c))
        .collect();
    let words: Vec<&str> = shown.split_whitespace().collect();
    let folded: String = words
        .join(" ")
        .chars()
        .map(|c| two_faced_capital(c).unwrap_or(c))
        .collect::<String>()
        .to_lowercase()
        .chars()
        .map(|c| capital_look_alike(c).unwrap_or(c))
        .collect();
    // Some prototypes are capitals (`0` is `O`): lower-case them so `B0b` is `bob`.
    let skeleton: String = unicode_security::skeleton(&folded).collect();
    skeleton.to_lowercase().nfkc().collect()
}

/// The small Latin letter whose capital `c`'s capital looks like, when `c`'s small form looks
/// like no Latin letter at all (Cyrillic `в`, `н`, `т`; Greek `η`, `κ`): so `Вob` is `Bob`.
/// Decided on the letter's case pair alone, so a letter and its capital still share a key; a
/// small form that looks like a Latin letter wins (Greek `ν` stays `v`, its capital `Ν` with it).
fn capital_look_alike(c: char) -> Option<char> {
    let mut upper = c.to_uppercase();
    let capital = upper.next()?;
    if upper.next().is_some() {
        return None;
    }
    let mut buffer = [0; 4];
    let mut prototype = unicode_security::skeleton(capital.encode_utf8(&mut buffer));
    let latin = prototype.next().filter(char::is_ascii_uppercase)?;
    if prototype.next().is_some() {
        return None;
    }
    let small: String = c.to_lowercase().collect();
    if unicode_security::skeleton(&small).all(|p| p.is_ascii()) {
        return None;
    }
    Some(latin.to_ascii_lowercase())
}

/// The Latin capital `c` looks like, when `c` is a capital whose small form looks like another
/// Latin letter: Greek `Ν` (N, whose `ν` is v) and `Υ` (Y, whose `υ` is u), and a few Warang Citi
/// letters. No one key can follow both looks of such a case pair, so these capitals are read as
/// written, before case is folded: `Νed` is `Ned`, `Υann` is `Yann`, while `νed` stays `ved`.
/// The price: a name using them in capitals and in small letters is two names (`ΆΝΝΑ` looks
/// like `ANNA`, `Άννα` like `Avva`), as they look.
fn two_faced_capital(c: char) -> Option<char> {
    if !c.is_uppercase() {
        return None;
    }
    let mut lower = c.to_lowercase();
    let small = lower.next().filter(|&small| small != c)?;
    if lower.next().is_some() {
        return None;
    }
    let mut buffer = [0; 4];
    let latin = single(unicode_security::skeleton(c.encode_utf8(&mut buffer)))
        .filter(char::is_ascii_uppercase)?;
    let looks = single(unicode_security::skeleton(small.encode_utf8(&mut buffer)))
        .filter(char::is_ascii_lowercase)?;
    (looks != latin.to_ascii_lowercase()).then_some(latin)
}

/// The one character of `chars`, if there is exactly one.
fn single(mut chars: impl Iterator<Item = char>) -> Option<char> {
    let first = chars.next()?;
    chars.next().is_none().then_some(first)
}

/// Whether `c` is a compatibility letter (UTS #39 identifier type `Not_NFKC`) that looks like a
/// Latin letter but is stored, once normalised, as a letter that looks like another: the lunate
/// sigmas `Ϲ` and `ϲ` (which look like `C` and `c` but are stored as `Σ` and `ς`), the long `ſ`
/// (which looks like `f` and is stored as `s`). Such a name would be shown as what it was not
/// typed as, and is refused like a small capital.
fn changes_look_when_stored(c: char) -> bool {
    use unicode_security::general_security_profile::IdentifierType;
    use unicode_security::GeneralSecurityProfile;
    if !c.is_alphabetic() || c.identifier_type() != Some(IdentifierType::Not_NFKC) {
        return false;
    }
    let mut buffer = [0; 4];
    let Some(looks) = single(unicode_security::skeleton(c.encode_utf8(&mut buffer)))
        .filter(char::is_ascii_alphabetic)
    else {
        return false;
    };
    let stored: String = c.to_string().nfkc().collect();
    let stored_looks: String = unicode_security::skeleton(&stored).collect();
    !stored_looks.eq_ignore_ascii_case(looks.encode_utf8(&mut buffer))
}

/// The first letter of `name` that Unicode keeps for technical or obsolete use and that can
/// pass for an everyday letter the confusables data does not map it to: small capitals such as
/// `ᴀ` (U+1D00) and the other phonetic letters (UTS #39 identifier types `Technical`,
/// `Obsolete`, `Deprecated`). Living scripts, minority ones (`Limited_Use`) included, and
/// anything that is not a letter (digits, emoji, punctuation) are never refused. `name` is the
/// name as typed: a compatibility letter that normalising would turn into a letter of another
/// look ([`changes_look_when_stored`], the lunate `Ϲ`) is found before it is normalised away.
pub fn disguising_letter(name: &str) -> Option<char> {
    use unicode_security::general_security_profile::IdentifierType;
    use unicode_security::GeneralSecurityProfile;
    if let Some(c) = name.chars().find(|&c| changes_look_when_stored(c)) {
        return Some(c);
    }
    name.nfkc().find(|&c| {
        c.is_alphabetic()
            && matches!(
                c.identifier_type(),
                Some(
                    IdentifierType::Technical
                        | IdentifierType::Obsolete
                        | IdentifierType::Deprecated
                )
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_match_serde<T: StoredName + Serialize>() {
        for &value in T::ALL {
            assert_eq!(serde_json::to_value(value).unwrap(), value.as_str());
            assert!(T::from_stored(value.as_str()).is_some());
        }
        assert!(T::from_stored("unknown").is_none());
    }

    #[test]
    fn a_name_key_ignores_case_width_and_invisible_characters() {
        for same in ["DUPE", "ｄｕｐｅ", " du\u{200B}pe\u{FEFF}", "Dupe\u{FE0F}"] {
            assert_eq!(name_key(same), "dupe", "{same:?}");
        }
        assert_eq!(name_key("ZO\u{0045}\u{0301}"), name_key("zoé"));
        assert_ne!(name_key("Ann"), name_key("Anne"));
        // Spaces separate words: a run of them is one, but they are never dropped.
        assert_eq!(name_key(" Ann \u{3000} Lee "), "ann lee");
        assert_ne!(name_key("Ann Lee"), name_key("AnnLee"));
    }

    #[test]
    fn look_alike_names_have_one_key_and_case_is_folded_before_the_skeleton() {
        // Latin, Cyrillic (U+0410) and Greek (U+0391) capital A.
        for same in ["Ann", "\u{410}nn", "\u{391}nn", "\u{430}nn", "\u{3B1}nn"] {
            assert_eq!(name_key(same), "ann", "{same:?}");
        }
        assert_eq!(name_key("B0b"), name_key("bob"));
        assert_eq!(name_key("A1"), name_key("Al"));
        assert_eq!(name_key("Kim"), name_key("Kirn"), "m and rn look alike");
        // Look-alikes only as capitals: Cyrillic `В`, `Н`, Greek `Τ`, in either case.
        for same in ["\u{412}ob", "\u{432}ob", "BOB"] {
            assert_eq!(name_key(same), name_key("Bob"), "{same:?}");
        }
        assert_eq!(name_key("\u{41D}annah"), name_key("Hannah"));
        assert_eq!(name_key("\u{3A4}om"), name_key("Tom"));
        // `I` is `i` before it could become the `l` it looks like.
        assert_eq!(name_key("AI"), name_key("ai"));
        assert_ne!(name_key("Al"), name_key("AI"));
        assert_ne!(name_key("Kai"), name_key("Kal"));
        // Unicode's data does not count a small capital as its capital (it has the height of a
        // small letter), nor accents as nothing.
        assert_ne!(name_key("\u{1D00}nn"), name_key("Ann"));
        assert_ne!(name_key("Zoé"), name_key("Zoe"));
        // The small capital is not in the confusables data: it is refused instead.
        assert_eq!(disguising_letter("\u{1D00}nn"), Some('\u{1D00}'));
        for name in [
            "Ann",
            "\u{410}nn",
            "Łukasz",
            "Иван",
            "さくら",
            "Oma 🎲",
            "Ꭰᏼ",
            "Zoé 2",
        ] {
            assert_eq!(disguising_letter(name), None, "{name:?}");
        }
        // Idempotent on what it stores, so re-keying twice changes nothing.
        for name in [
            "Ann",
            "\u{410}nn",
            "B0b",
            "Łukasz",
            "Иван",
            "さくら",
            "\u{39D}ed",
            "Άννα",
        ] {
            assert_eq!(name_key(&name_key(name)), name_key(name), "{name:?}");
        }
    }

    #[test]
    fn a_capital_whose_small_form_looks_like_another_latin_letter_is_read_as_written() {
        // Greek capital Nu and Upsilon: `Ν` looks like N but `ν` like v, `Υ` like Y but `υ` like u.
        assert_eq!(name_key("\u{39D}ed"), name_key("Ned"));
        assert_eq!(name_key("\u{3A5}ann"), name_key("Yann"));
        assert_eq!(name_key("\u{39D}ED"), name_key("ned"));
        assert_eq!(name_key("\u{3BD}ed"), name_key("ved"));
        assert_eq!(name_key("\u{3C5}nd"), name_key("und"));
        assert_ne!(name_key("\u{3BD}ed"), name_key("Ned"));
        // Letters whose two cases look like one Latin letter keep one key.
        assert_eq!(name_key("\u{39A}im"), name_key("\u{3BA}im"));
        assert_eq!(name_key("\u{391}nn"), name_key("\u{3B1}nn"));
        assert_eq!(two_faced_capital('N'), None);
        assert_eq!(two_faced_capital('\u{39D}'), Some('N'));
        assert_eq!(two_faced_capital('\u{3BD}'), None);
    }

    #[test]
    fn a_compatibility_letter_stored_as_a_letter_of_another_look_is_refused() {
        // The lunate sigma `Ϲ` looks like C and is stored as `Σ`; the long `ſ` looks like f.
        assert_eq!(disguising_letter("\u{3F9}y"), Some('\u{3F9}'));
        assert_eq!(disguising_letter("\u{3F2}y"), Some('\u{3F2}'));
        assert_eq!(disguising_letter("\u{17F}am"), Some('\u{17F}'));
        // Compatibility forms stored as the letters they look like are names like any other.
        for name in ["ＤＵＰＥ", "\u{FB01}ona", "Σy", "Zoé"] {
            assert_eq!(disguising_letter(name), None, "{name:?}");
        }
    }

    #[test]
    fn a_letter_and_its_capital_have_one_key() {
        for c in (0..0x30000).filter_map(char::from_u32) {
            let mut upper = c.to_uppercase();
            let (Some(capital), None) = (upper.next(), upper.next()) else {
                continue;
            };
            let small: String = capital.to_lowercase().collect();
            // NFKC comes first and may change a letter and its capital differently (the lunate
            // sigma `ϲ` is `ς`, its capital `Ϲ` is `Σ`, whose small form is `σ`).
            let unchanged = |c: char| c.to_string().nfkc().eq([c]);
            // A capital whose small form looks like another Latin letter is read as written.
            if small != c.to_lowercase().collect::<String>()
                || !unchanged(c)
                || !unchanged(capital)
                || two_faced_capital(capital).is_some()
            {
                continue;
            }
            assert_eq!(
                name_key(&c.to_string()),
                name_key(&capital.to_string()),
                "U+{:04X}",
                c as u32
            );
        }
    }

    /// A digest of the key of every code point up to U+2FFFF, one at a time.
    fn keys_digest() -> String {
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        for c in (0..0x30000).filter_map(char::from_u32) {
            hasher.update(name_key(&c.to_string()).as_bytes());
            hasher.update([0]);
        }
        hex::encode(hasher.finalize())
    }

    /// New Unicode data (a `unicode-security` or `unicode-normalization` release, a Rust release's
    /// lower-case mapping) may give stored names other keys, which would split a player's record
    /// in two. When this fails: bump [`NAME_KEY_SCHEME`] (stored keys are then recomputed at the
    /// next start), and write the new digest here.
    #[test]
    fn the_keys_of_all_characters_are_those_of_the_current_key_scheme() {
        assert_eq!(NAME_KEY_SCHEME, 3);
        assert_eq!(
            keys_digest(),
            "821c31c66f9386f86326f6d4726d21ba045dee89345bd677be794b8be5e81fa4"
        );
    }

    #[test]
    fn stored_names_are_the_serde_names_and_unknown_names_are_refused() {
        names_match_serde::<MatchStatus>();
        names_match_serde::<MatchKind>();
        names_match_serde::<RandomnessMode>();
        names_match_serde::<ChanceReporters>();
        names_match_serde::<AbandonedBy>();
        names_match_serde::<SheetEntryKind>();
    }
}
