//! How a live stream's events are written on the wire, for match and sheet streams alike:
//! Server-Sent Events (`id:` the version, `event:` the type, `data:` the JSON) or one JSON
//! document per line. An event is serialised once into a [`Frame`] that holds both forms; a
//! chunk of a stream's body is frames joined in one framing, counted in the metrics as written;
//! a heartbeat is an SSE comment or a `heartbeat` line.

use std::fmt::Write as _;

use actix_web::web::Bytes;
use serde::Serialize;

use crate::metrics::METRICS;

/// How a stream's events are written on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Server-Sent Events: `id:` is the version, `event:` the type, `data:` the JSON.
    Sse,
    /// One JSON document per line.
    Ndjson,
}

impl Framing {
    /// The content type of a stream's body in this framing.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Sse => "text/event-stream",
            Self::Ndjson => "application/x-ndjson",
        }
    }
}

/// One stream event, serialised once and framed for both formats.
#[derive(Debug)]
pub struct Frame {
    name: &'static str,
    version: Option<i64>,
    sse: Bytes,
    ndjson: Bytes,
}

impl Frame {
    /// `event` (named `name`, with `version` as its SSE id) framed for both formats.
    pub fn encode(name: &'static str, version: Option<i64>, event: &impl Serialize) -> Self {
        // Serialising our own event types cannot fail.
        let json = serde_json::to_string(event).unwrap_or_default();
        let mut sse = String::with_capacity(json.len() + name.len() + 32);
        if let Some(version) = version {
            let _ = writeln!(sse, "id: {version}");
        }
        let _ = write!(sse, "event: {name}\ndata: {json}\n\n");
        let mut ndjson = json;
        ndjson.push('\n');
        Self {
            name,
            version,
            sse: Bytes::from(sse),
            ndjson: Bytes::from(ndjson),
        }
    }

    /// The event's name: its `type`, and its SSE event name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The event's version (its SSE id), if it has one.
    pub fn version(&self) -> Option<i64> {
        self.version
    }

    pub fn bytes(&self, framing: Framing) -> &Bytes {
        match framing {
            Framing::Sse => &self.sse,
            Framing::Ndjson => &self.ndjson,
        }
    }
}

/// So that frames may be joined however they are held (owned, borrowed, shared).
impl AsRef<Frame> for Frame {
    fn as_ref(&self) -> &Frame {
        self
    }
}

/// Frames written one after the other (not counted: bytes built once for many streams, each
/// counting them as it writes them, see [`record_written`]).
pub fn join<F: AsRef<Frame>>(framing: Framing, frames: impl IntoIterator<Item = F>) -> Bytes {
    let mut out = Vec::new();
    for frame in frames {
        out.extend_from_slice(frame.as_ref().bytes(framing));
    }
    Bytes::from(out)
}

/// Frames written one after the other, counted in the metrics as written.
pub fn chunk<F: AsRef<Frame>>(framing: Framing, frames: impl IntoIterator<Item = F>) -> Bytes {
    let mut out = Vec::new();
    for frame in frames {
        let frame = frame.as_ref();
        METRICS.record_stream_event(frame.name);
        out.extend_from_slice(frame.bytes(framing));
    }
    Bytes::from(out)
}

/// Counts frames in the metrics as written, when a stream writes bytes [`join`]ed before.
pub fn record_written<F: AsRef<Frame>>(frames: impl IntoIterator<Item = F>) {
    for frame in frames {
        METRICS.record_stream_event(frame.as_ref().name);
    }
}

/// A heartbeat: an SSE comment, or `event` (a `heartbeat` event) as a line.
pub fn heartbeat(framing: Framing, event: &impl Serialize) -> Bytes {
    METRICS.record_stream_event("heartbeat");
    match framing {
        Framing::Sse => Bytes::from_static(b": heartbeat\n\n"),
        Framing::Ndjson => Frame::encode("heartbeat", None, event)
            .bytes(Framing::Ndjson)
            .clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(name: &'static str, version: Option<i64>) -> Frame {
        Frame::encode(name, version, &serde_json::json!({"type": name}))
    }

    #[test]
    fn a_frame_is_the_same_event_in_both_formats() {
        let frame = frame("entry", Some(3));
        assert_eq!(
            frame.bytes(Framing::Sse),
            "id: 3\nevent: entry\ndata: {\"type\":\"entry\"}\n\n"
        );
        assert_eq!(frame.bytes(Framing::Ndjson), "{\"type\":\"entry\"}\n");
    }
}
