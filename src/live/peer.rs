//! A stream's TCP connection, so that the hub can cut it.
//!
//! A client that stops reading fills the send buffer; actix then stops polling the response
//! body, so the stream can neither notice that the hub dropped it nor end itself, and the
//! connection would hold its buffers (megabytes with autotuning) for as long as the client
//! keeps it open. The hub cuts such a connection instead: it resets it (`connect(AF_UNSPEC)` on
//! a duplicate descriptor; `SO_LINGER` 0 and `shutdown` do not, as the FIN waits behind the
//! unsent data), the kernel drops the send buffer, the dispatcher's next write fails, and actix
//! drops the connection.
//!
//! (A client that closes its connection is noticed by actix itself: the server refuses
//! half-closed connections, see `h1_allow_half_closed` in `crate::http`, so a read of end of
//! file ends the connection, and the stream with it, at once.)

use std::any::Any;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};

use actix_web::dev::Extensions;
use actix_web::HttpRequest;

/// The descriptor of a connection's socket, kept with the connection (see [`remember`]).
#[derive(Clone, Copy)]
struct SocketFd(RawFd);

/// `HttpServer::on_connect`: keeps each connection's socket descriptor with it.
pub fn remember(connection: &dyn Any, data: &mut Extensions) {
    if let Some(socket) = connection.downcast_ref::<actix_web::rt::net::TcpStream>() {
        data.insert(SocketFd(socket.as_raw_fd()));
    }
}

/// A stream's own handle on its connection's socket (a duplicate descriptor).
pub struct Connection(TcpStream);

impl Connection {
    /// The connection `request` came on, if it is a TCP connection.
    pub fn of(request: &HttpRequest) -> Option<Self> {
        let SocketFd(fd) = *request.conn_data::<SocketFd>()?;
        // SAFETY: `fd` is the socket of the connection serving `request`; actix's dispatcher owns
        // it and closes it only once the connection ends, which is after this handler has run.
        // It is only borrowed long enough to duplicate it (std's own `dup`). The safe way,
        // duplicating every connection's descriptor in `remember`, would double the descriptors
        // of all connections to serve the few that stream; no crate reaches it otherwise.
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        let socket = TcpStream::from(borrowed.try_clone_to_owned().ok()?);
        // A check that the descriptor is the one expected: the same peer as the request's.
        let peer: Option<SocketAddr> = socket.peer_addr().ok();
        (peer.is_some() && peer == request.peer_addr()).then_some(Self(socket))
    }

    /// Resets the connection: its unsent data is dropped and the dispatcher's next write fails.
    pub fn cut(&self) {
        if rustix::net::connect_unspec(&self.0).is_err() {
            let _ = self.0.shutdown(Shutdown::Both);
        }
    }
}
