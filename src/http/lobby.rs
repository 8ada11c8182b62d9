//! The lobby: invites to open seats, and the owner's actions around play.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{get, patch, post, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::body::Body;
use super::limits::client_address;
use super::params::InviteCode;
use super::required_bearer;
use super::responses::*;
use crate::config::{Network, Settings};
use crate::games::Seat;
use crate::matches::{
    self, AnyCreatedMatch, AnyMatchDetail, CreatedMatch, InviteError, InviteInfo, MatchDetail,
    RedeemedInvite, Rematch, RenameSeat, SeatInvite, SeatToken,
};
use crate::problem::Problem;
use crate::sheets::{AnySheetDetail, SheetDetail};
use crate::store::Store;

/// Wrong invite codes one address may send per [`FAILURE_WINDOW`]. A table mistypes a code now
/// and then; a guesser needs about 2^50 / (open invites) tries, so at this rate guessing is
/// hopeless, while a phone that mistyped waits minutes at worst. Failures, not attempts, are
/// counted: four phones behind one café router redeem their codes without meeting the limit.
pub const MAX_INVITE_FAILURES: u32 = 10;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(600);
/// Addresses remembered at most; past it, windows that ended are forgotten first.
const REMEMBERED_ADDRESSES: usize = 10_000;

/// Wrong invite codes per client address, in fixed windows. Stricter than the service's rate
/// limit, which counts every request.
pub struct InviteGuard {
    trusted_proxies: Vec<Network>,
    failures: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl InviteGuard {
    pub fn new(settings: &Settings) -> Self {
        Self {
            trusted_proxies: settings.trusted_proxies.clone(),
            failures: Mutex::new(HashMap::new()),
        }
    }

    fn client(&self, request: &HttpRequest) -> IpAddr {
        let peer = request
            .peer_addr()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
        client_address(peer, request.headers(), &self.trusted_proxies)
    }

    /// Refuses an address that used up its failures, with the seconds left in its window.
    fn check(&self, client: IpAddr, now: Instant) -> Result<(), Problem> {
        let failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        match failures.get(&client) {
            Some(&(start, count))
                if count >= MAX_INVITE_FAILURES && now < start + FAILURE_WINDOW =>
            {
                let wait = (start + FAILURE_WINDOW - now).as_secs().max(1);
                let mut problem = Problem::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!("too many wrong invite codes from this address; retry in {wait} s"),
                );
                problem.retry_after = Some(u32::try_from(wait).unwrap_or(u32::MAX));
                Err(problem)
            }
            _ => Ok(()),
        }
    }

    fn fail(&self, client: IpAddr, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        if failures.len() >= REMEMBERED_ADDRESSES && !failures.contains_key(&client) {
            failures.retain(|_, (start, _)| now < *start + FAILURE_WINDOW);
            if failures.len() >= REMEMBERED_ADDRESSES {
                // All still counting: the oldest window goes, so memory stays bounded.
                let oldest = failures
                    .iter()
                    .min_by_key(|(_, (start, _))| *start)
                    .map(|(ip, _)| *ip);
                if let Some(ip) = oldest {
                    failures.remove(&ip);
                }
            }
        }
        let entry = failures.entry(client).or_insert((now, 0));
        if now >= entry.0 + FAILURE_WINDOW {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }

    /// Runs an invite lookup for `request`'s client, counting a code that matched nothing.
    async fn guard<T>(
        &self,
        request: &HttpRequest,
        lookup: impl std::future::Future<Output = Result<T, InviteError>>,
    ) -> Result<T, Problem> {
        let client = self.client(request);
        self.check(client, Instant::now())?;
        match lookup.await {
            Ok(answer) => Ok(answer),
            Err(InviteError::WrongCode(problem)) => {
                self.fail(client, Instant::now());
                Err(problem)
            }
            Err(InviteError::Other(problem)) => Err(problem),
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
        .guard(&request, matches::invite(&store, &code))
        .await?;
    Ok(web::Json(info))
}

/// Take an open seat: the invite is spent and its seat's token is returned, once. A second
/// redeem is a 409 `invite_redeemed`. Wrong codes are limited to
/// 10 per address per 10 minutes (then 429 with `Retry-After`).
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
        .guard(&request, matches::redeem_invite(&store, &code))
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
    fn an_address_is_refused_after_its_failures_until_its_window_ends() {
        let guard = InviteGuard {
            trusted_proxies: Vec::new(),
            failures: Mutex::new(HashMap::new()),
        };
        let (client, other) = ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap());
        let start = Instant::now();
        for _ in 0..MAX_INVITE_FAILURES {
            assert!(guard.check(client, start).is_ok());
            guard.fail(client, start);
        }
        let refused = guard.check(client, start).unwrap_err();
        assert_eq!(refused.status, 429);
        assert_eq!(refused.retry_after, Some(FAILURE_WINDOW.as_secs() as u32));
        assert!(
            guard.check(other, start).is_ok(),
            "other addresses are not held back"
        );
        assert!(guard.check(client, start + FAILURE_WINDOW).is_ok());
        guard.fail(client, start + FAILURE_WINDOW);
        assert!(
            guard.check(client, start + FAILURE_WINDOW).is_ok(),
            "a new window starts"
        );
    }
}
