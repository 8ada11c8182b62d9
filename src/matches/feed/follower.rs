//! One stream's place in its match's feed: what it writes of each update (nothing it already
//! sent; an `error` instead once its seat's token is replaced), sharing the update's bytes when
//! it writes all of them, and whether it fell behind or everything has been sent.

use std::sync::Arc;

use actix_web::web::Bytes;
use tokio::sync::broadcast;

use super::update::{Access, Handle, MatchStreamEvent, Update};
use crate::frames::{chunk, record_written, Frame, Framing};
use crate::games::Seat;
use crate::problem::{Code, Problem};

/// One stream's place in its match's feed.
pub struct Follower {
    /// Keeps the feed running while the stream is open.
    pub(super) _feed: Arc<dyn Handle>,
    pub(super) updates: broadcast::Receiver<Arc<Update>>,
    pub(super) framing: Framing,
    /// The last version sent: nothing up to it is sent again.
    pub(super) sent: i64,
    /// A seat stream's seat and token hash: the stream ends once the seat has another token.
    pub(super) seat: Option<(Seat, Vec<u8>)>,
    /// The access version the token was checked at.
    pub(super) since: i64,
    pub(super) done: bool,
}

/// What a stream gets from its feed.
pub enum Followed {
    /// The next chunk of the body; the stream ends after it if [`Follower::is_done`].
    Chunk(Bytes),
    /// The stream fell too far behind: it ends (its client can resume).
    Lagged,
    /// Nothing more will come.
    Ended,
}

impl Follower {
    /// Whether everything has been sent: the match is over, or the stream failed.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The next chunk the feed has for this stream. Cancel-safe.
    pub async fn next(&mut self) -> Followed {
        if self.done {
            return Followed::Ended;
        }
        loop {
            match self.updates.recv().await {
                Ok(update) => {
                    if let Some(chunk) = self.take(&update) {
                        return Followed::Chunk(chunk);
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => return Followed::Lagged,
                Err(broadcast::error::RecvError::Closed) => return Followed::Ended,
            }
        }
    }

    fn revoked(&self, access: &Access) -> bool {
        let Some((seat, hash)) = &self.seat else {
            return false;
        };
        // An update read before the token was checked knows nothing newer than the check.
        access.version >= self.since
            && access
                .seats
                .get(*seat)
                .is_none_or(|now| now.as_ref() != Some(hash))
    }

    /// What this stream writes of `update`: nothing it already sent, and an error instead of
    /// anything once its token has been replaced.
    fn take(&mut self, update: &Update) -> Option<Bytes> {
        if self.revoked(&update.access) {
            self.done = true;
            let problem = Problem::new(
                Code::InvalidToken,
                "the token belongs to no seat of this match",
            );
            let frame = Arc::new(MatchStreamEvent::error(&problem).frame());
            return Some(chunk(self.framing, [&frame]));
        }
        let fresh = |frame: &Frame, sent: i64| match (frame.name(), frame.version()) {
            ("entry", Some(version)) => version > sent,
            ("view", Some(version)) => version >= sent,
            _ => true,
        };
        let mut sent = self.sent;
        let mut all = true;
        let mut kept = Vec::with_capacity(update.frames.len());
        for frame in &update.frames {
            if fresh(frame, sent) {
                sent = sent.max(frame.version().unwrap_or(sent));
                self.done |= matches!(frame.name(), "end" | "error");
                kept.push(frame);
            } else {
                all = false;
            }
        }
        self.sent = sent;
        if kept.is_empty() {
            return None;
        }
        if !all {
            return Some(chunk(self.framing, kept));
        }
        record_written(&kept);
        Some(match self.framing {
            Framing::Sse => update.sse.clone(),
            Framing::Ndjson => update.ndjson.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::super::update::{Class, Joined};
    use super::*;

    fn frame(name: &'static str, version: Option<i64>) -> Arc<Frame> {
        Arc::new(Frame::encode(
            name,
            version,
            &serde_json::json!({"type": name}),
        ))
    }

    fn follower(sent: i64) -> (broadcast::Sender<Arc<Update>>, Follower) {
        struct Nothing;
        impl Handle for Nothing {
            fn join(&self, _: Class, _: Option<i64>) -> Joined {
                unreachable!()
            }
            fn retired(&self) -> bool {
                false
            }
        }
        let (sender, updates) = broadcast::channel(4);
        let follower = Follower {
            _feed: Arc::new(Nothing),
            updates,
            framing: Framing::Ndjson,
            sent,
            seat: Some((1, vec![1])),
            since: 5,
            done: false,
        };
        (sender, follower)
    }

    fn update(frames: Vec<Arc<Frame>>, access_version: i64, seat_one: u8) -> Arc<Update> {
        let access = Access {
            version: access_version,
            seats: vec![Some(vec![0]), Some(vec![seat_one])],
        };
        Arc::new(Update::new(frames, Arc::new(access)))
    }

    #[tokio::test]
    async fn a_follower_skips_what_it_sent_and_shares_the_bytes_of_the_rest() {
        let (sender, mut follower) = follower(4);
        let old = update(vec![frame("entry", Some(4)), frame("view", Some(4))], 5, 1);
        let new = update(vec![frame("entry", Some(5)), frame("view", Some(5))], 5, 1);
        for update in [&old, &new] {
            sender.send(update.clone()).unwrap();
        }
        let Followed::Chunk(first) = follower.next().await else {
            panic!("the view at the version sent is sent again")
        };
        assert_eq!(first, "{\"type\":\"view\"}\n");
        let Followed::Chunk(second) = follower.next().await else {
            panic!("what is new is sent")
        };
        assert_eq!(second.as_ptr(), new.ndjson.as_ptr(), "the shared bytes");
        assert!(!follower.is_done());
    }

    #[tokio::test]
    async fn a_seat_follower_ends_with_an_error_once_its_token_is_replaced() {
        let (sender, mut follower) = follower(4);
        // Read before the token was checked: it cannot revoke it.
        sender
            .send(update(vec![frame("entry", Some(5))], 4, 9))
            .unwrap();
        sender
            .send(update(vec![frame("entry", Some(6))], 6, 9))
            .unwrap();
        let Followed::Chunk(first) = follower.next().await else {
            panic!("an entry")
        };
        assert_eq!(first, "{\"type\":\"entry\"}\n");
        let Followed::Chunk(error) = follower.next().await else {
            panic!("an error")
        };
        let error: Value = serde_json::from_slice(&error).unwrap();
        assert_eq!(error["type"], "error");
        assert_eq!(error["problem"]["status"], 401);
        assert!(follower.is_done());
        assert!(matches!(follower.next().await, Followed::Ended));
    }

    #[tokio::test]
    async fn a_follower_that_falls_behind_the_backlog_is_told_so() {
        let (sender, mut follower) = follower(0);
        for version in 1..=6 {
            let _ = sender.send(update(vec![frame("entry", Some(version))], 5, 1));
        }
        assert!(matches!(follower.next().await, Followed::Lagged));
    }
}
