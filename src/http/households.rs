//! Households: made with one call, read and re-keyed with their keys.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use uuid::Uuid;

use super::body::Body;
use super::responses::*;
use crate::households::{
    self, BringIn, BroughtIn, CreateHousehold, CreatedHousehold, Household, HouseholdKey, KeyRole,
    Need, HOUSEHOLD_KEY,
};
use crate::matches::Who;
use crate::problem::{Code, Problem};
use crate::store::Store;
use crate::vocabulary::Space;

/// Make a household: a group whose sheets, matches, imports, players, statistics, boards and
/// ratings are its own. The answer holds its owner key (to make records in it and read them)
/// and its reader key (to read only), each shown only here; send one as `Household-Key`.
#[utoipa::path(
    tag = "households",
    request_body(content = CreateHousehold, example = json!({"name": "The Lees"})),
    responses(
        (status = 201, body = CreatedHousehold, headers(("Location" = String))),
        CreateProblems,
    )
)]
#[post("/households")]
pub async fn create_household(
    store: web::Data<Store>,
    body: Body<CreateHousehold>,
) -> Result<HttpResponse, Problem> {
    let created = households::create(&store, body.into_inner()).await?;
    Ok(HttpResponse::Created()
        .insert_header((
            "Location",
            format!("/v1/households/{}", created.household.id),
        ))
        .json(created))
}

/// A household, to a holder of one of its keys (`Household-Key`): 404 to any other.
#[utoipa::path(
    tag = "households",
    params(("id" = Uuid, Path), super::params::InHousehold),
    responses(
        (status = 200, body = Household),
        ReadProblems,
    )
)]
#[get("/households/{id}")]
pub async fn get_household(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
) -> Result<web::Json<Household>, Problem> {
    let key = required_key(&request)?;
    Ok(web::Json(
        households::read(&store, path.into_inner(), key).await?,
    ))
}

/// A new key of one role for the household (send the owner key as `Household-Key`): shown only
/// in this answer, and the key of that role handed out before stops working at once, on every
/// phone and app that held it.
#[utoipa::path(
    tag = "households",
    params(("id" = Uuid, Path), ("role" = inline(KeyRole), Path), super::params::InHousehold),
    responses(
        (status = 200, body = HouseholdKey),
        OwnerProblems,
    )
)]
#[post("/households/{id}/keys/{role}")]
pub async fn reissue_key(
    store: web::Data<Store>,
    path: web::Path<(Uuid, KeyRole)>,
    request: HttpRequest,
) -> Result<web::Json<HouseholdKey>, Problem> {
    let (id, role) = path.into_inner();
    let key = required_key(&request)?;
    Ok(web::Json(
        households::reissue_key(&store, id, key, role).await?,
    ))
}

/// Bring public records into the household (send its owner key as `Household-Key`): every
/// public sheet and match that has ended and at which everyone is among the players named moves
/// into the household, with its players' statistics and ratings; the answer reports what moved
/// and what stays public, and why. With `dry_run`, only the report. Asking again moves nothing
/// new.
#[utoipa::path(
    tag = "households",
    params(("id" = Uuid, Path), super::params::InHousehold),
    request_body(content = BringIn, example = json!({"players": ["Mum", "Dad", "Zoé"], "dry_run": true})),
    responses(
        (status = 200, body = BroughtIn),
        HouseholdWriteProblems,
    )
)]
#[post("/households/{id}/bring-in")]
pub async fn bring_in(
    store: web::Data<Store>,
    path: web::Path<Uuid>,
    request: HttpRequest,
    body: Body<BringIn>,
) -> Result<web::Json<BroughtIn>, Problem> {
    let key = required_key(&request)?;
    Ok(web::Json(
        households::bring_in(&store, path.into_inner(), key, body.into_inner()).await?,
    ))
}

fn required_key(request: &HttpRequest) -> Result<&str, Problem> {
    household_key(request)?.ok_or_else(|| {
        Problem::new(
            Code::InvalidHouseholdKey,
            "send one of the household's keys as `Household-Key`",
        )
    })
}

/// The `Household-Key` header, if any, as text.
pub(crate) fn household_key(request: &HttpRequest) -> Result<Option<&str>, Problem> {
    request
        .headers()
        .get(HOUSEHOLD_KEY)
        .map(|value| {
            value.to_str().map(str::trim).map_err(|_| {
                Problem::new(
                    Code::InvalidHouseholdKey,
                    "a household key is visible ASCII",
                )
            })
        })
        .transpose()
}

/// The space a request works in, from its `Household-Key` ([`households::space`]).
pub(crate) async fn space(
    store: &Store,
    request: &HttpRequest,
    need: Need,
) -> Result<Space, Problem> {
    households::space(store, household_key(request)?, need).await
}

/// Who reads a match: the bearer token it presents, if any, and its household's space.
pub(crate) async fn who<'a>(
    store: &Store,
    request: &HttpRequest,
    token: &'a Option<String>,
) -> Result<Who<'a>, Problem> {
    Ok(Who {
        token: token.as_deref(),
        space: space(store, request, Need::Read).await?,
    })
}
