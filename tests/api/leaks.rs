//! Information leaks over HTTP, for all five games and every match endpoint a caller can reach.
//!
//! Security requirement: no seat can read another seat's hidden cards or the seed before the end
//! through any endpoint; once the match is over the seed is revealed and explains every chance
//! outcome.
//!
//! Each test hosts server-seeded matches and plays them with random legal moves (computed by the
//! engine from the true state). Randomness is fixed: the moves come from a ChaCha stream with a
//! fixed seed, and right after creation the match is re-seeded in the database with a fixed seed
//! (its first chance re-dealt from it), so a failure replays identically. The true state and log
//! are read from the test's database and replayed with the library; every answer the service
//! gives a seat, a spectator or the owner is compared with an independent computation from that
//! truth: `G::view(state, viewer)`, `G::redact_event(event, viewer)`, the engine's own refusal.
//! A third of the moves are followed at once by their seat's take-back, which the policy
//! accepts or refuses; the truth is replayed by the test's own oracle of take-backs.

mod expected;
mod hosted;
mod in_play;
mod the_end;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee::games::{Game, GameKind};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};

use hosted::host;
use in_play::{check_everything, play_one};
use the_end::{check_live_streams, check_the_end};

/// Moves per match at most; options keep every game well under it.
const MOVE_CAP: usize = 300;

/// Plays `seeds` matches of game `G` with every check, each seed once, through one of the two
/// pipelines: the service's own the first two, the uncached one the third. Views, logs and
/// refusals are built by the same code either way; the pipelines differ in where the match they
/// read comes from, which one match each covers.
async fn leak_property<G: Game>(pipeline: Pipeline, seeds: &[u8]) {
    let mut finished = 0;
    let (mut asked, mut accepted) = (0, 0);
    let uncached = pipeline == Pipeline::Uncached;
    let seeds = seeds
        .iter()
        .enumerate()
        .filter(|&(index, _)| (index % 3 == 2) == uncached);
    for (_, &seed_byte) in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(0x1eaf_0000 + seed_byte as u64);
        let app = spawn_app_on(pipeline).await;
        let mut m = host::<G>(app, seed_byte, &mut rng).await;
        let mut truth = m.truth::<G>().await;
        // Every caller holds a live stream for the whole match, read as it comes.
        let mut watchers = Vec::new();
        for caller in m.callers() {
            let path = m.path("/stream?after=0");
            let mut stream = m.app.stream(&path, m.token(caller), &[]).await.unwrap();
            watchers.push((
                caller,
                tokio::spawn(async move {
                    let events = stream.until_closed().await;
                    (events, stream.text)
                }),
            ));
        }
        check_everything::<G>(&mut m).await;
        // Checkpoints thin out as the match goes on: about 8 in 50 moves, 12 in 300.
        let mut next_check = 1;
        let mut moves = 0;
        while !G::is_over(&truth.state) && moves < MOVE_CAP {
            let checkpoint = moves + 1 == next_check;
            truth = play_one::<G>(&mut m, &truth, checkpoint).await;
            moves += 1;
            if checkpoint {
                next_check += 2 + moves / 2 + (m.rng.next_u64() % 3) as usize;
                if !G::is_over(&truth.state) {
                    check_everything::<G>(&mut m).await;
                }
            }
        }
        asked += m.take_backs.0;
        accepted += m.take_backs.1;
        if G::is_over(&truth.state) {
            check_the_end::<G>(&mut m).await;
            check_live_streams::<G>(&mut m, watchers).await;
            finished += 1;
        } else {
            for (_, watcher) in watchers {
                watcher.abort();
            }
            check_everything::<G>(&mut m).await;
        }
    }
    assert!(
        finished > 0,
        "at least one {} match must reach its end",
        G::KIND.slug()
    );
    // Every Lucky Dice move rolls (a chance event follows it), and almost every Plus & Minus
    // move shows a card: there, random play almost never meets a move that may be taken back.
    let rarely_mendable = matches!(G::KIND, GameKind::LuckyDice | GameKind::PlusMinus);
    assert!(
        (rarely_mendable || accepted > 0) && accepted < asked,
        "{} take-backs: {accepted} of {asked} accepted; both answers must be checked",
        G::KIND.slug()
    );
}

every_pipeline!(no_lucky_jack_seat_sees_another_seats_hand_draws_or_the_seed_through_any_endpoint);
/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint (match, log, replay, result, export, move answers, error answers); the
/// seed is revealed at the end and matches its commitment.
async fn no_lucky_jack_seat_sees_another_seats_hand_draws_or_the_seed_through_any_endpoint(
    pipeline: Pipeline,
) {
    leak_property::<referee::games::lucky_jack::LuckyJack>(pipeline, &[1, 2, 3]).await;
}

every_pipeline!(
    no_lucky_luau_seat_sees_another_seats_face_down_draw_or_the_seed_through_any_endpoint
);
/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint; a face-down Lucky Luau draw stays the drawer's until it is strung.
async fn no_lucky_luau_seat_sees_another_seats_face_down_draw_or_the_seed_through_any_endpoint(
    pipeline: Pipeline,
) {
    leak_property::<referee::games::lucky_luau::LuckyLuau>(pipeline, &[4, 5, 6]).await;
}

every_pipeline!(
    no_plus_minus_seat_sees_another_seats_hand_or_passed_card_or_the_seed_through_any_endpoint
);
/// Security requirement: no seat can read another seat's hidden cards or the seed before the end
/// through any endpoint; Plus & Minus hands, draws and passed cards stay with their seats.
async fn no_plus_minus_seat_sees_another_seats_hand_or_passed_card_or_the_seed_through_any_endpoint(
    pipeline: Pipeline,
) {
    leak_property::<referee::games::plus_minus::PlusMinus>(pipeline, &[7, 8, 9]).await;
}

every_pipeline!(no_luck_plus_seat_sees_the_draw_pile_or_the_seed_through_any_endpoint);
/// Security requirement: no seat can read the draw pile's order or the seed before the end
/// through any endpoint (Luck Plus hands are public; the pile and the future dice are not).
async fn no_luck_plus_seat_sees_the_draw_pile_or_the_seed_through_any_endpoint(pipeline: Pipeline) {
    leak_property::<referee::games::luck_plus::LuckPlus>(pipeline, &[10, 11, 12]).await;
}

every_pipeline!(no_lucky_dice_seat_sees_the_coaster_pile_or_the_seed_through_any_endpoint);
/// Security requirement: no seat can predict future chance before the end: the Lucky Dice seed
/// (every future roll) and the coaster pile never reach any caller through any endpoint.
async fn no_lucky_dice_seat_sees_the_coaster_pile_or_the_seed_through_any_endpoint(
    pipeline: Pipeline,
) {
    leak_property::<referee::games::lucky_dice::LuckyDice>(pipeline, &[13, 14, 15]).await;
}
