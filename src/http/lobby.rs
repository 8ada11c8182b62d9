//! The lobby: invites to open seats, and the owner's actions around play.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::body::Body;
use super::limits::client_address;
use super::params::InviteCode;
use super::required_bearer;
use super::responses::*;
use crate::config::{household, Network, Settings};
use crate::games::Seat;
use crate::matches::{
    self, AnyCreatedMatch, AnyMatchDetail, CreatedMatch, InviteError, InviteInfo, MatchDetail,
    RedeemedInvite, Rematch, RenameSeat, SeatInvite, SeatToken,
};
use crate::problem::{Code, Problem};
use crate::sheets::{AnySheetDetail, SheetDetail};
use crate::store::Store;

/// Addresses remembered at most; past it, the fullest buckets are forgotten first (a forgotten
/// address starts full, so forgetting a full one changes nothing).
const REMEMBERED_ADDRESSES: usize = 10_000;

/// Invite tries per client address, in a token bucket: every lookup or redeem of a well-formed
/// code takes a try *before* the code is looked up, under one lock, so concurrent guesses
/// cannot outrun the budget; a code that names an invite gives its try back, so only wrong
/// codes spend it. Tries come back one every `refill`, up to `burst`.
///
/// With the defaults (burst 10, one try per 6 s), a family behind one router whose phone
/// mistyped ten times, or who shares the router with a guesser who stopped, waits at most 6 s
/// for the next try, while a guesser gets 14,400 tries a day per address: with 10,000 invites
/// open, finding one takes about 2^50 / 10,000 tries, some 21,000 years per address.
/// IPv6 clients are counted per /64, the block one household (or one attacker) gets.
pub struct InviteGuard {
    trusted_proxies: Vec<Network>,
    burst: f64,
    refill: Duration,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// An address's tries, as they stood at `at`.
#[derive(Clone, Copy)]
struct Bucket {
    tries: f64,
    at: Instant,
}

impl InviteGuard {
    pub fn new(settings: &Settings) -> Self {
        Self::with(
            settings.trusted_proxies.clone(),
            settings.invites.tries_burst,
            settings.invites.try_refill,
        )
    }

    fn with(trusted_proxies: Vec<Network>, burst: u32, refill: Duration) -> Self {
        Self {
            trusted_proxies,
            burst: f64::from(burst.max(1)),
            refill: refill.max(Duration::from_millis(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn client(&self, request: &HttpRequest) -> IpAddr {
        let peer = request
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        household(client_address(
            peer,
            request.headers(),
            &self.trusted_proxies,
        ))
    }

    /// The tries a bucket holds at `now`.
    fn tries(&self, bucket: &Bucket, now: Instant) -> f64 {
        let refilled =
            now.saturating_duration_since(bucket.at).as_secs_f64() / self.refill.as_secs_f64();
        (bucket.tries + refilled).min(self.burst)
    }

    /// Takes one try from `client`, or refuses with the seconds until the next one comes back.
    fn take(&self, client: IpAddr, now: Instant) -> Result<(), Problem> {
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= REMEMBERED_ADDRESSES && !buckets.contains_key(&client) {
            buckets.retain(|_, bucket| self.tries(bucket, now) < self.burst);
            if buckets.len() >= REMEMBERED_ADDRESSES {
                // All still refilling: the fullest goes, so memory stays bounded.
                let fullest = buckets
                    .iter()
                    .max_by(|a, b| self.tries(a.1, now).total_cmp(&self.tries(b.1, now)))
                    .map(|(ip, _)| *ip);
                if let Some(ip) = fullest {
                    buckets.remove(&ip);
                }
            }
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tries: self.burst,
            at: now,
        });
        let tries = self.tries(bucket, now);
        if tries >= 1.0 {
            *bucket = Bucket {
                tries: tries - 1.0,
                at: now,
            };
            return Ok(());
        }
        let wait = ((1.0 - tries) * self.refill.as_secs_f64()).ceil().max(1.0);
        let problem = Problem::new(
            Code::RateLimited,
            format!("too many wrong invite codes from this address; retry in {wait} s"),
        )
        .with_retry_after(wait as u32);
        Err(problem)
    }

    /// Returns a try taken for a code that turned out to name an invite.
    fn give_back(&self, client: IpAddr, now: Instant) {
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(bucket) = buckets.get_mut(&client) {
            let tries = (self.tries(bucket, now) + 1.0).min(self.burst);
            *bucket = Bucket { tries, at: now };
        }
    }

    /// Runs an invite lookup for `request`'s client: a malformed code is refused for free, any
    /// other takes a try first, kept only if the code named no invite.
    async fn guard<T>(
        &self,
        request: &HttpRequest,
        code: &str,
        lookup: impl std::future::Future<Output = Result<T, InviteError>>,
    ) -> Result<T, Problem> {
        matches::check_invite_code(code)?;
        let client = self.client(request);
        self.take(client, Instant::now())?;
        match lookup.await {
            Err(InviteError::WrongCode(problem)) => Err(problem),
            answer => {
                self.give_back(client, Instant::now());
                answer.map_err(Problem::from)
            }
        }
    }
}

/// What an invite link shows: the match, the seat and whether it is taken (never a token).
/// Wrong codes count against the address's budget, as for redeeming.
#[utoipa::path(
    tag = "lobby",
    params(InviteCode),
    responses(
        (status = 200, body = InviteInfo),
        PublicReadProblems,
    )
)]
#[get("/invites/{code}")]
pub async fn get_invite(
    store: web::Data<Store>,
    guard: web::Data<InviteGuard>,
    path: web::Path<InviteCode>,
    request: HttpRequest,
) -> Result<web::Json<InviteInfo>, Problem> {
    let code = path.into_inner().code;
    let info = guard
        .guard(&request, &code, matches::invite(&store, &code))
        .await?;
    Ok(web::Json(info))
}

/// Take an open seat: the invite is spent and its seat's token is returned, once. A second
/// redeem is a 409 `invite_redeemed`. Each try takes one of the address's invite tries (10 at
/// once, one back every 6 s by default; a code that names an invite gives it back); without
/// one, 429 `rate_limited` with `Retry-After`.
#[utoipa::path(
    tag = "lobby",
    params(InviteCode),
    responses(
        (status = 200, body = RedeemedInvite),
        PublicStateProblems,
    )
)]
#[post("/invites/{code}/redeem")]
pub async fn redeem_invite(
    store: web::Data<Store>,
    guard: web::Data<InviteGuard>,
    path: web::Path<InviteCode>,
    request: HttpRequest,
) -> Result<web::Json<RedeemedInvite>, Problem> {
    let code = path.into_inner().code;
    let redeemed = guard
        .guard(&request, &code, matches::redeem_invite(&store, &code))
        .await?;
    Ok(web::Json(redeemed))
}

/// Re-issue a seat's token (owner token): the seat's old token, and its invite if not yet
/// redeemed, stop working at once. For a phone that lost its token.
#[utoipa::path(
    tag = "lobby",
    params(("id" = Uuid, Path), ("seat" = Seat, Path, minimum = 0)),
    security(("token" = [])),
    responses(
        (status = 200, body = SeatToken),
        OwnerProblems,
    )
)]
#[post("/matches/{id}/seats/{seat}/token")]
pub async fn reissue_seat_token(
    store: web::Data<Store>,
    path: web::Path<(Uuid, Seat)>,
    request: HttpRequest,
) -> Result<web::Json<SeatToken>, Problem> {
    let (id, seat) = path.into_inner();
    let token = required_bearer(&request)?;
    Ok(web::Json(
        matches::reissue_token(&store, id, seat, &token).await?,
    ))
}

/// Re-issue a seat's invite (owner token): its old token and old invite stop working at once,
/// and the seat is open until a phone redeems the new code.
#[utoipa::path(
    tag = "lobby",
    params(("id" = Uuid, Path), ("seat" = Seat, Path, minimum = 0)),
    security(("token" = [])),
    responses(
        (status = 200, body = SeatInvite),
        OwnerProblems,
    )
)]
#[post("/matches/{id}/seats/{seat}/invite")]
pub async fn reissue_seat_invite(
    store: web::Data<Store>,
    path: web::Path<(Uuid, Seat)>,
    request: HttpRequest,
) -> Result<web::Json<SeatInvite>, Problem> {
    let (id, seat) = path.into_inner();
    let token = required_bearer(&request)?;
    Ok(web::Json(
        matches::reissue_invite(&store, id, seat, &token).await?,
    ))
}

/// Rename a seat (owner token) before any seat has moved; after the first move, 409
/// `play_started`. Returns the match as the owner sees it.
#[utoipa::path(
    tag = "lobby",
    params(("id" = Uuid, Path), ("seat" = Seat, Path, minimum = 0)),
    request_body(content = RenameSeat, example = json!({"name": "Cleo"})),
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMatchDetail),
        Problems<(BadRequest, Unauthorized, Forbidden, NotFound, Conflict, Unprocessable, OtherClientError, Unavailable)>,
    )
)]
#[patch("/matches/{id}/seats/{seat}")]
pub async fn rename_seat(
    store: web::Data<Store>,
    path: web::Path<(Uuid, Seat)>,
    request: HttpRequest,
    body: Body<RenameSeat>,
) -> Result<web::Json<MatchDetail>, Problem> {
    let (id, seat) = path.into_inner();
    let token = required_bearer(&request)?;
    Ok(web::Json(
        matches::rename_seat(&store, id, seat, &token, body.into_inner()).await?,
    ))
}

/// Abandon a match in progress (owner token): status `abandoned`, kept in history and listings
/// with its trace (`abandoned`: by whom, when, at which version). Once a seat has moved it stays
/// in each seated player's record and leaderboard row as `abandoned` (not played, not lost);
/// before that it counts in no statistics. Moves and reports after it are a 409
/// `match_abandoned`. Abandoning it again changes nothing; a finished match is a 409.
#[utoipa::path(
    tag = "lobby",
    security(("token" = [])),
    responses(
        (status = 200, body = AnyMatchDetail),
        OwnerProblems,
    )
)]
#[post("/matches/{id}/abandon")]
pub async fn abandon_match(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<web::Json<MatchDetail>, Problem> {
    let token = required_bearer(&request)?;
    Ok(web::Json(
        matches::abandon_match(&store, path.into_inner(), &token).await?,
    ))
}

/// Abandon a score sheet in progress (owner token), as a match is abandoned (a sheet with an
/// entry counts as `abandoned` for its players): entries and corrections after it are a 409
/// `match_abandoned`.
#[utoipa::path(
    tag = "lobby",
    security(("token" = [])),
    responses(
        (status = 200, body = AnySheetDetail),
        Problems<(Unauthorized, NotFound, Conflict, OtherClientError, Unavailable)>,
    )
)]
#[post("/sheets/{id}/abandon")]
pub async fn abandon_sheet(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<web::Json<SheetDetail>, Problem> {
    let token = required_bearer(&request)?;
    Ok(web::Json(
        matches::abandon_sheet(&store, path.into_inner(), &token).await?,
    ))
}

/// Start a rematch of a finished or abandoned match (owner token): the same game, options,
/// randomness and players in the same seats, with a new owner token and new seat tokens (or
/// invites). The new match names the old as `rematch_of`, the old the new as `rematch`; a match
/// has one rematch (409 `rematch_exists` names it). No body: `?invites=true` leaves the new
/// seats open.
#[utoipa::path(
    tag = "lobby",
    params(("id" = Uuid, Path), Rematch),
    security(("token" = [])),
    responses(
        (status = 201, body = AnyCreatedMatch, headers(("Location" = String))),
        Problems<(BadRequest, Unauthorized, Forbidden, NotFound, Conflict, OtherClientError, Unavailable)>,
    )
)]
#[post("/matches/{id}/rematch")]
pub async fn rematch(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    query: web::Query<Rematch>,
) -> Result<HttpResponse, Problem> {
    let token = required_bearer(&request)?;
    let created: CreatedMatch =
        matches::rematch(&store, path.into_inner(), &token, query.into_inner()).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/matches/{}", created.detail.id)))
        .json(created))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_a_try_back_each_refill_and_others_are_not_held_back() {
        let refill = Duration::from_secs(6);
        let guard = InviteGuard::with(Vec::new(), 10, refill);
        let (client, other) = ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap());
        let start = Instant::now();
        for _ in 0..10 {
            assert!(guard.take(client, start).is_ok());
        }
        let refused = guard.take(client, start).unwrap_err();
        assert_eq!(refused.status, 429);
        assert_eq!(refused.retry_after, Some(6));
        assert!(
            guard.take(other, start).is_ok(),
            "another address has its own"
        );
        assert!(guard.take(client, start + refill / 2).is_err());
        assert!(
            guard.take(client, start + refill).is_ok(),
            "one try came back"
        );
        assert!(guard.take(client, start + refill).is_err());
        guard.give_back(client, start + refill);
        assert!(
            guard.take(client, start + refill).is_ok(),
            "a right code gives it back"
        );
    }

    #[test]
    fn an_ipv6_household_is_one_client() {
        assert_eq!(
            household("2001:db8:1:2:aaaa::1".parse().unwrap()),
            household("2001:db8:1:2:bbbb::2".parse().unwrap())
        );
        assert_ne!(
            household("2001:db8:1:2::1".parse().unwrap()),
            household("2001:db8:1:3::1".parse().unwrap())
        );
        assert_eq!(
            household("::ffff:192.0.2.1".parse().unwrap()),
            "192.0.2.1".parse::<IpAddr>().unwrap()
        );
    }
}
