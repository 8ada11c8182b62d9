//! Corrections to the OpenAPI document utoipa derives.
//!
//! Those utoipa's typed document can express are [`Modify`]s ([`NdjsonStreams`],
//! [`AnyGameUnions`], [`TaggedVariantTitles`], [`DefaultsInDescriptions`]), applied before the document becomes JSON. The rest are passes over its
//! JSON form ([`refine`]), each saying why it cannot be typed. The problem answers, once
//! references that a pass copied into each operation, are written out by
//! [`super::responses::Problems`]; the links of created records are [`super::links`].
//!
//! Runs once at start-up on a document this crate itself generated: a shape it does not expect is
//! a programming error that the `openapi` test catches, hence `expect` rather than error plumbing.
#![allow(clippy::expect_used)]

use serde_json::{json, Map, Value};
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{Operation, ParameterIn, PathItem};
use utoipa::openapi::schema::{AnyOf, Object, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi, RefOr};
use utoipa::Modify;

use crate::games::{Game, GameKind};
use crate::with_game;

const SCHEMA_REF: &str = "#/components/schemas/";

/// The derived document with `Seat` named, game-specific names and bounds, and closed objects.
///
/// Each pass here stays on the JSON form, for the reason its comment gives. Most are a deep walk:
/// they must reach every schema or every `$ref` wherever it nests (properties, items, unions,
/// discriminator mappings, `x-item-schema`). utoipa's typed document has no visitor for that, and
/// its `Schema` is `#[non_exhaustive]`, so a hand-written typed walk could not be checked to miss
/// nothing; the JSON form has one shape.
pub fn refine(mut spec: Value) -> Value {
    spell_link_fields(&mut spec);
    name_seat_schema(&mut spec);
    let documents = name_game_instantiations(&mut spec);
    bound_seats_per_game(&mut spec, &documents);
    bound_integers(&mut spec);
    close_objects(&mut spec);
    drop_unreferenced_schemas(&mut spec);
    spec
}

/// Every answer (response object) of every operation in the document.
fn answers_mut(spec: &mut Value) -> impl Iterator<Item = &mut Value> {
    spec["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .flat_map(|item| {
            item.as_object_mut()
                .into_iter()
                .flat_map(|i| i.values_mut())
        })
        .flat_map(|operation| {
            operation["responses"]
                .as_object_mut()
                .into_iter()
                .flat_map(|answers| answers.values_mut())
        })
}

/// Every operation of a path.
pub(super) fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .flatten()
}

/// An `application/x-ndjson` answer is declared in the handler with the schema of one line;
/// the document describes the body as what it is, text with one such JSON document per line
/// (`x-item-schema`, OpenAPI 3.2's `itemSchema` under an extension name), so that generated
/// clients read it as text instead of parsing it as one JSON document.
pub struct NdjsonStreams;

impl Modify for NdjsonStreams {
    fn modify(&self, openapi: &mut OpenApi) {
        let answers = openapi
            .paths
            .paths
            .values_mut()
            .flat_map(operations_mut)
            .flat_map(|operation| operation.responses.responses.values_mut());
        for answer in answers {
            let RefOr::T(answer) = answer else { continue };
            let Some(media) = answer.content.get_mut("application/x-ndjson") else {
                continue;
            };
            let Some(line) = media.schema.take() else {
                continue;
            };
            let name = match &line {
                RefOr::Ref(reference) => reference
                    .ref_location
                    .strip_prefix(SCHEMA_REF)
                    .unwrap_or("JSON")
                    .to_owned(),
                RefOr::T(_) => "JSON".to_owned(),
            };
            media.schema = Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .content_media_type("application/x-ndjson")
                    .description(Some(format!(
                        "Newline-delimited JSON: one `{name}` document per line, each ending in \
                         a newline (see `x-item-schema`). Read the body as text and parse each \
                         line on its own."
                    )))
                    .into(),
            );
            let line = serde_json::to_value(line).expect("a schema serialises");
            let mut extensions = media.extensions.take().unwrap_or_default();
            extensions.merge(ExtensionsBuilder::new().add("x-item-schema", line).build());
            media.extensions = Some(extensions);
        }
    }
}

/// A header is sent or not; it cannot be `null`. utoipa derives an optional header (an
/// `Option`) as `["string", "null"]`, which tells a client or a fuzzer that the text `null` is
/// a valid `Last-Event-ID`; the service refuses it. Optional headers keep `required: false`
/// and lose the `null`.
pub struct HeadersNeverNull;

impl Modify for HeadersNeverNull {
    fn modify(&self, openapi: &mut OpenApi) {
        let headers = openapi
            .paths
            .paths
            .values_mut()
            .flat_map(operations_mut)
            .flat_map(|operation| operation.parameters.iter_mut().flatten())
            .filter(|parameter| parameter.parameter_in == ParameterIn::Header);
        for header in headers {
            let Some(RefOr::T(Schema::Object(schema))) = &mut header.schema else {
                continue;
            };
            if let SchemaType::Array(types) = &schema.schema_type {
                let mut types: Vec<Type> = types
                    .iter()
                    .filter(|t| **t != Type::Null)
                    .cloned()
                    .collect();
                schema.schema_type = match types.len() {
                    1 => SchemaType::Type(types.remove(0)),
                    _ => SchemaType::Array(types),
                };
            }
        }
    }
}

/// The `Any…` unions say "the type of whichever game this is": several games' types can accept
/// the same value (an empty score, say), so they are `anyOf`, not the exclusive `oneOf` utoipa
/// derives for an enum.
pub struct AnyGameUnions;

impl Modify for AnyGameUnions {
    fn modify(&self, openapi: &mut OpenApi) {
        let schemas = openapi
            .components
            .iter_mut()
            .flat_map(|components| components.schemas.iter_mut())
            .filter(|(name, _)| name.starts_with("Any"));
        for (_, schema) in schemas {
            let RefOr::T(Schema::OneOf(union)) = schema else {
                continue;
            };
            // A union has no title to keep: `AnyOf` has none.
            let union = std::mem::take(union);
            let mut any = AnyOf::new();
            any.items = union.items;
            any.schema_type = union.schema_type;
            any.description = union.description;
            any.default = union.default;
            any.example = union.example;
            any.examples = union.examples;
            any.discriminator = union.discriminator;
            any.extensions = union.extensions;
            *schema = RefOr::T(Schema::AnyOf(any));
        }
    }
}

/// utoipa 5 writes a link's fields in snake case (`operation_id`); OpenAPI spells them in camel
/// case (`operationId`), and tools ignore the others.
///
/// Stays on JSON: utoipa's `Link` serialises its fields so, and no typed value spells them right.
fn spell_link_fields(spec: &mut Value) {
    for link in answers_mut(spec)
        .filter_map(|answer| answer.get_mut("links").and_then(Value::as_object_mut))
        .flat_map(|links| links.values_mut())
        .filter_map(Value::as_object_mut)
    {
        for (snake, camel) in [
            ("operation_id", "operationId"),
            ("operation_ref", "operationRef"),
            ("request_body", "requestBody"),
        ] {
            if let Some(value) = link.remove(snake) {
                link.insert(camel.to_owned(), value);
            }
        }
    }
}

/// Removes the schemas no operation reaches (those registered only as parts of generic types).
///
/// Stays on JSON: a deep walk over every reference (see [`refine`]).
fn drop_unreferenced_schemas(spec: &mut Value) {
    let mut pending = Vec::new();
    collect_refs(&spec["paths"], &mut pending);
    let mut reachable = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if reachable.insert(name.clone()) {
            collect_refs(&spec["components"]["schemas"][&name], &mut pending);
        }
    }
    schemas_mut(spec).retain(|name, _| reachable.contains(name));
}

/// States the range of every integer's Rust type as `minimum` and `maximum`: formats such as
/// `uint32` are not checked by JSON Schema validators, and the service answers 400 for a number
/// its field cannot hold, so the range is part of the contract.
///
/// Stays on JSON: a deep walk over every integer schema, the rules core's included, which
/// carries no OpenAPI attributes (see [`refine`]).
fn bound_integers(spec: &mut Value) {
    visit_schemas(spec, &mut |schema| {
        let is_integer = match &schema["type"] {
            Value::String(t) => t == "integer",
            Value::Array(types) => types.iter().any(|t| t == "integer"),
            _ => false,
        };
        if !is_integer {
            return;
        }
        // utoipa spells unsigned formats `u-int32`; clients know them as `uint32`.
        if let Some(format) = schema["format"].as_str().and_then(|f| f.strip_prefix("u-")) {
            schema["format"] = json!(format!("u{format}"));
        }
        let unsigned = schema["minimum"].as_i64().is_some_and(|m| m >= 0);
        let (low, high): (i128, i128) = match schema["format"].as_str() {
            Some("int8") => (i8::MIN.into(), i8::MAX.into()),
            Some("int16") => (i16::MIN.into(), i16::MAX.into()),
            Some("int32") => (i32::MIN.into(), i32::MAX.into()),
            Some("uint8") => (0, u8::MAX.into()),
            Some("uint16") => (0, u16::MAX.into()),
            Some("uint32") => (0, u32::MAX.into()),
            // `usize` comes without a format.
            Some("uint64") | None if unsigned => (0, u64::MAX.into()),
            _ => (i64::MIN.into(), i64::MAX.into()),
        };
        let low = schema["minimum"]
            .as_i64()
            .map_or(low, |m| low.max(m.into()));
        let high = schema["maximum"]
            .as_i64()
            .map_or(high, |m| high.min(m.into()));
        // JavaScript reads JSON numbers as doubles: past 2^53 - 1 a seat or a version would
        // silently change, so no integer of the contract goes beyond.
        schema["minimum"] = json!(low.max(-JS_SAFE_INTEGER) as i64);
        schema["maximum"] = json!(high.min(JS_SAFE_INTEGER) as i64);
    });
}

/// A property's `default` is said in its description instead. One schema serves both requests,
/// where a defaulted field may be left out, and replies, where it is always present; generators
/// such as openapi-typescript read `default` as "always present", which would make clients spell
/// out every option. The catalogue (`GET /v1/games`) lists the defaults as values too.
pub struct DefaultsInDescriptions;

impl Modify for DefaultsInDescriptions {
    fn modify(&self, openapi: &mut OpenApi) {
        let properties = openapi
            .components
            .iter_mut()
            .flat_map(|components| components.schemas.values_mut())
            .filter_map(|schema| match schema {
                RefOr::T(Schema::Object(object)) => Some(object.properties.values_mut()),
                _ => None,
            })
            .flatten();
        for property in properties {
            let RefOr::T(property) = property else {
                continue;
            };
            let (default, description) = match property {
                Schema::Object(s) => (&mut s.default, &mut s.description),
                Schema::Array(s) => (&mut s.default, &mut s.description),
                Schema::OneOf(s) => (&mut s.default, &mut s.description),
                Schema::AllOf(s) => (&mut s.default, &mut s.description),
                Schema::AnyOf(s) => (&mut s.default, &mut s.description),
                _ => continue,
            };
            let Some(default) = default.take() else {
                continue;
            };
            let said = format!("Default: `{default}`.");
            *description = Some(match description.take() {
                Some(text) => format!("{text}\n\n{said}"),
                None => said,
            });
        }
    }
}

/// The largest integer a JavaScript number holds exactly, 2^53 - 1.
const JS_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// utoipa names a document instantiated for one game after the game: `MatchDetail_LuckyJack`
/// (see [`crate::payloads`]). Clients read better with the game first, as the games' own types are
/// named: `LuckyJackMatchDetail`. Returns the new names.
///
/// Stays on JSON: utoipa names an instantiation itself (`as` cannot rename one instantiation), so
/// every reference to it must be rewritten: a deep walk (see [`refine`]).
fn name_game_instantiations(spec: &mut Value) -> Vec<String> {
    rewrite_refs(spec, &mut |name| game_first(name));
    let schemas = schemas_mut(spec);
    let renamed: Vec<(String, String)> = schemas
        .keys()
        .filter_map(|name| Some((name.clone(), game_first(name)?)))
        .collect();
    for (old, new) in &renamed {
        if let Some(schema) = schemas.remove(old) {
            schemas.insert(new.clone(), schema);
        }
    }
    schemas.sort_keys();
    renamed.into_iter().map(|(_, new)| new).collect()
}

/// `MatchDetail_LuckyJack`'s name with the game first, `LuckyJackMatchDetail`; `None` for a
/// schema that is not a game's instantiation.
fn game_first(name: &str) -> Option<String> {
    GameKind::ALL.iter().find_map(|&kind| {
        let game = schema_prefix(kind);
        let base = name.strip_suffix(&format!("_{game}"))?;
        Some(format!("{game}{base}"))
    })
}

/// The variants of a tagged enum (`{"type": "draw"}`, `{"kind": "deal", ...}`) are inline
/// objects, which generators name by position (`LuckyJackMoveType1`). Each gets a `title` from
/// its tag instead: `LuckyJackMove`'s `draw` variant is `LuckyJackDrawMove`.
pub struct TaggedVariantTitles;

impl Modify for TaggedVariantTitles {
    fn modify(&self, openapi: &mut OpenApi) {
        let prefixes: Vec<String> = GameKind::ALL.iter().map(|&k| schema_prefix(k)).collect();
        let unions = openapi
            .components
            .iter_mut()
            .flat_map(|components| components.schemas.iter_mut())
            .filter_map(|(name, schema)| match schema {
                RefOr::T(Schema::OneOf(union)) => Some((name, union)),
                _ => None,
            });
        for (name, union) in unions {
            // The name the document gives it (see `name_game_instantiations`).
            let name = game_first(name).unwrap_or_else(|| name.clone());
            let (game, rest) = prefixes
                .iter()
                .find_map(|p| Some((p.as_str(), name.strip_prefix(p.as_str())?)))
                .unwrap_or(("", name.as_str()));
            for variant in &mut union.items {
                let RefOr::T(Schema::Object(variant)) = variant else {
                    continue;
                };
                if let Some(tag) = variant_tag(variant) {
                    variant.title = Some(format!("{game}{}{rest}", pascal_case(&tag)));
                }
            }
        }
    }
}

/// The value of the one required property of `variant` that allows a single string: the tag
/// of an internally tagged enum's variant.
fn variant_tag(variant: &Object) -> Option<String> {
    variant.properties.iter().find_map(|(field, schema)| {
        let RefOr::T(Schema::Object(schema)) = schema else {
            return None;
        };
        match schema.enum_values.as_deref()? {
            [Value::String(tag)] if variant.required.contains(field) => Some(tag.clone()),
            _ => None,
        }
    })
}

fn pascal_case(snake: &str) -> String {
    snake
        .split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// In one game's documents (`documents`: a request's `seat`, a match's `seats`, `players`), a
/// seat is one of that game's seats and a table has that game's number of players: each game gets
/// its own `…Seat` schema, and `players` and `seats` are bounded by its player range. The service
/// refuses anything else with a 4xx. Seats inside a game's own types (a move's target seat, a
/// tally's winner) stay plain `Seat`s: whether such a seat is at the table is the rules' call,
/// which `/check` answers as a refusal (`legal: false`), not as a malformed request.
///
/// Stays on JSON: it rewrites references inside each game's documents, a deep walk (see
/// [`refine`]), under the names [`name_game_instantiations`] gives.
fn bound_seats_per_game(spec: &mut Value, documents: &[String]) {
    for &kind in GameKind::ALL {
        let prefix = schema_prefix(kind);
        let (min, max) = with_game!(kind, G => (G::MIN_PLAYERS, G::MAX_PLAYERS));
        let seat = format!("{prefix}Seat");
        let own: Vec<String> = documents
            .iter()
            .filter(|name| name.starts_with(&prefix))
            .cloned()
            .collect();
        for name in own {
            let schema = &mut schemas_mut(spec)[&name];
            rewrite_refs(schema, &mut |r| (r == "Seat").then(|| seat.clone()));
        }
        // The game's own types count players too (a state's `players`, a tally's rows): a
        // stateless client's state with a table the game does not seat is refused, so the
        // schema says so.
        for (name, schema) in schemas_mut(spec).iter_mut() {
            if !name.starts_with(&prefix) {
                continue;
            }
            let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut)
            else {
                continue;
            };
            for (field, count) in properties.iter_mut() {
                match (field.as_str(), count["type"].as_str()) {
                    ("players", Some("integer")) => {
                        count["minimum"] = json!(min);
                        count["maximum"] = json!(max);
                    }
                    ("players" | "seats", Some("array")) => {
                        count["minItems"] = json!(min);
                        count["maxItems"] = json!(max);
                    }
                    _ => {}
                }
            }
        }
        schemas_mut(spec).insert(
            seat,
            json!({
                "type": "integer",
                "minimum": 0,
                "maximum": max - 1,
                "description": format!(
                    "A seat at a {} table, 0-based, in clockwise order: seat s+1 sits on the \
                     left of seat s.",
                    kind.title()
                ),
            }),
        );
    }
}

/// Every request type refuses unknown fields (`deny_unknown_fields`), and every response is
/// serialised from the same types, so an object schema lists all the properties there are (but
/// the BG Stats import's, a foreign format read leniently).
/// utoipa says so only for some of them; this says it for all. Parts of an `allOf` stay open,
/// since each part sees only some of the properties.
///
/// Stays on JSON: a deep walk into every nested object schema (see [`refine`]).
fn close_objects(spec: &mut Value) {
    // A component that is a part of an `allOf` somewhere stays open too.
    let mut parts = Vec::new();
    collect_all_of_parts(spec, &mut parts);
    fn close(value: &mut Value, in_all_of: bool) {
        match value {
            Value::Object(fields) => {
                if !in_all_of
                    && fields.contains_key("properties")
                    && !fields.contains_key("additionalProperties")
                {
                    fields.insert("additionalProperties".into(), json!(false));
                }
                for (key, inner) in fields.iter_mut() {
                    close(inner, key == "allOf");
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| close(item, in_all_of)),
            _ => {}
        }
    }
    for (name, schema) in schemas_mut(spec) {
        // A foreign format read leniently stays open: its extra keys are ignored, not refused.
        if !crate::bgstats::LENIENT_SCHEMAS.contains(&name.as_str()) {
            close(schema, parts.contains(name));
        }
    }
}

fn collect_all_of_parts(value: &Value, parts: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            if let Some(all_of) = fields.get("allOf") {
                collect_refs(all_of, parts);
            }
            fields
                .values()
                .for_each(|inner| collect_all_of_parts(inner, parts));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_all_of_parts(item, parts)),
        _ => {}
    }
}

/// Calls `visit` on every schema object in the components and the paths.
fn visit_schemas(spec: &mut Value, visit: &mut impl FnMut(&mut Value)) {
    fn walk(value: &mut Value, visit: &mut impl FnMut(&mut Value)) {
        match value {
            Value::Object(fields) => {
                if fields.contains_key("type") {
                    visit(value);
                }
                if let Value::Object(fields) = value {
                    fields.values_mut().for_each(|inner| walk(inner, visit));
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| walk(item, visit)),
            _ => {}
        }
    }
    walk(&mut spec["components"]["schemas"], visit);
    walk(&mut spec["paths"], visit);
}

/// utoipa files the `Seat` alias under its target type's name, `usize`; clients should see a
/// documented `Seat` instead.
///
/// Stays on JSON: `Seat` is an alias in the rules core, which carries no OpenAPI attributes, and
/// every reference to `usize` must be rewritten: a deep walk (see [`refine`]).
fn name_seat_schema(spec: &mut Value) {
    rewrite_refs(spec, &mut |name| {
        (name == "usize").then(|| "Seat".to_owned())
    });
    let schemas = schemas_mut(spec);
    schemas.remove("usize");
    schemas.insert(
        "Seat".into(),
        json!({
            "type": "integer",
            "minimum": 0,
            "description": "A seat at the table, 0-based, in clockwise order: seat s+1 sits on the left of seat s."
        }),
    );
}

fn collect_refs(value: &Value, refs: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            for (key, inner) in fields {
                match (
                    key.as_str(),
                    inner.as_str().and_then(|r| r.strip_prefix(SCHEMA_REF)),
                ) {
                    ("$ref", Some(name)) => refs.push(name.to_owned()),
                    _ => collect_refs(inner, refs),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, refs)),
        _ => {}
    }
}

/// Replaces every schema reference (a `$ref`, or a target of a discriminator's `mapping`) whose
/// name `rename` maps to a new name.
fn rewrite_refs(value: &mut Value, rename: &mut impl FnMut(&str) -> Option<String>) {
    match value {
        Value::Object(fields) => {
            let in_mapping = fields.contains_key("propertyName");
            for (key, inner) in fields.iter_mut() {
                if in_mapping && key == "mapping" {
                    for target in inner
                        .as_object_mut()
                        .into_iter()
                        .flat_map(|m| m.values_mut())
                    {
                        rewrite_ref(target, rename);
                    }
                } else if key == "$ref" {
                    rewrite_ref(inner, rename);
                } else {
                    rewrite_refs(inner, rename);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite_refs(item, rename)),
        _ => {}
    }
}

fn rewrite_ref(target: &mut Value, rename: &mut impl FnMut(&str) -> Option<String>) {
    let renamed = target
        .as_str()
        .and_then(|r| r.strip_prefix(SCHEMA_REF))
        .and_then(rename);
    if let Some(new) = renamed {
        *target = json!(format!("{SCHEMA_REF}{new}"));
    }
}

fn schemas_mut(spec: &mut Value) -> &mut Map<String, Value> {
    spec["components"]["schemas"]
        .as_object_mut()
        .expect("the spec has component schemas")
}

/// The prefix of a game's wire types in the spec: its title without spaces or signs.
pub fn schema_prefix(kind: GameKind) -> String {
    kind.title()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}
