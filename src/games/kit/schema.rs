//! Schemas for option fields whose rule a type alone cannot say (utoipa's `schema_with`), so
//! that every value the schema accepts is one the game accepts.

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

/// An integer that must be one of `allowed`.
pub fn integer_in(allowed: &[u32]) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::UInt32,
        )))
        .minimum(allowed.iter().min().map(|&n| f64::from(n)))
        .maximum(allowed.iter().max().map(|&n| f64::from(n)))
        .enum_values(Some(allowed.iter().copied()))
}

/// A boolean that only `value` is supported for (the other is documented as not implemented).
pub fn only_bool(value: bool) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Boolean)
        .enum_values(Some([value]))
}

/// `count` distinct items of `item`.
pub fn distinct(item: RefOr<Schema>, count: usize) -> ArrayBuilder {
    ArrayBuilder::new()
        .items(item)
        .min_items(Some(count))
        .max_items(Some(count))
        .unique_items(true)
}
