//! The links from a created match or sheet to the operations its reply opens, built once here.
//!
//! A typed [`Modify`] rather than `links(...)` in the operations' attributes: utoipa's attributes
//! take only literal text, neither a helper's result nor a macro, so each link there repeated the
//! same parameter and description. It runs on the document after the routes' paths are in it
//! (see [`super::openapi`]).

use utoipa::openapi::link::Link;
use utoipa::openapi::path::PathItem;
use utoipa::openapi::{OpenApi, RefOr};
use utoipa::Modify;

/// The links of `POST /v1/matches` and `POST /v1/sheets`.
pub struct CreatedLinks;

/// A create operation, where its reply keeps the new id, what to say about it, and the links
/// (name and operation id) it gets.
struct Created {
    path: &'static str,
    id: &'static str,
    description: &'static str,
    links: &'static [(&'static str, &'static str)],
}

const CREATED: [Created; 2] = [
    Created {
        path: "/v1/matches",
        id: "$response.body#/match/id",
        description: "The match's id. Send `owner_token` or a seat's `token` from this reply as \
                      `Authorization: Bearer <token>`.",
        links: &[
            ("GetMatch", "get_match"),
            ("SubmitMove", "submit_move"),
            ("SubmitChance", "submit_chance"),
            ("TakeBack", "take_back"),
            ("CorrectChance", "correct_chance"),
            ("GetLog", "get_log"),
            ("GetPly", "get_ply"),
            ("GetResult", "get_result"),
            ("ExportMatch", "export_match"),
            ("MatchBgStats", "match_bgstats"),
        ],
    },
    Created {
        path: "/v1/sheets",
        id: "$response.body#/sheet/id",
        description: "The sheet's id. Send `owner_token` from this reply as \
                      `Authorization: Bearer <token>` to add entries.",
        links: &[
            ("GetSheet", "get_sheet"),
            ("AppendEntry", "append_entry"),
            ("RemoveLastRound", "remove_last_round"),
            ("FinishSheet", "finish_sheet"),
            ("ExportSheet", "export_sheet"),
            ("SheetBgStats", "sheet_bgstats"),
        ],
    },
];

impl Modify for CreatedLinks {
    fn modify(&self, openapi: &mut OpenApi) {
        for created in &CREATED {
            let answer = openapi
                .paths
                .paths
                .get_mut(created.path)
                .and_then(|item: &mut PathItem| item.post.as_mut())
                .and_then(|operation| operation.responses.responses.get_mut("201"));
            let Some(RefOr::T(answer)) = answer else {
                continue;
            };
            for (name, operation_id) in created.links {
                let link = Link::builder()
                    .operation_id(*operation_id)
                    .parameter("id", created.id)
                    .description(created.description)
                    .build();
                answer.links.insert((*name).to_owned(), RefOr::T(link));
            }
        }
    }
}
