//! The instance's one `LISTEN referee_changes` connection, kept open with backoff.

use std::time::Duration;

use futures_util::future::poll_fn;
use tokio_postgres::{AsyncMessage, NoTls};
use uuid::Uuid;

use super::Hub;
use crate::metrics::METRICS;

const CHANNEL: &str = "referee_changes";

/// Listens for change notices on `database_url` for as long as the runtime runs, reconnecting
/// with backoff when the connection fails. Every (re)connection nudges all subscribers once the
/// `LISTEN` is in place, so a change committed while no listener was connected is still read.
pub fn listen(database_url: String, hub: Hub) {
    tokio::spawn(async move {
        let mut delay = Duration::from_millis(250);
        loop {
            match listen_once(&database_url, &hub, &mut delay).await {
                Ok(()) => tracing::warn!("change listener connection closed"),
                Err(error) => tracing::warn!(%error, retry_in = ?delay, "change listener failed"),
            }
            METRICS.record_listener_reconnect();
            tokio::time::sleep(delay).await;
            delay = (delay * 2).min(Duration::from_secs(5));
        }
    });
}

async fn listen_once(
    database_url: &str,
    hub: &Hub,
    delay: &mut Duration,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = tokio_postgres::connect(database_url, NoTls).await?;
    // The connection delivers notices only while it is polled, so it is driven here, alongside
    // the `LISTEN` sent through the client.
    let notices = async {
        while let Some(message) = poll_fn(|cx| connection.poll_message(cx)).await {
            if let AsyncMessage::Notification(notice) = message? {
                METRICS.record_change_notice();
                for change in notice.payload().split(',') {
                    match changed_id(change) {
                        Some(id) => hub.changed(id),
                        None => tracing::warn!(change, "unreadable change notice"),
                    }
                }
            }
        }
        Ok(())
    };
    let subscribe = async {
        client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
        *delay = Duration::from_millis(250);
        tracing::info!("listening for changes");
        hub.changed_all();
        std::future::pending::<Result<(), tokio_postgres::Error>>().await
    };
    tokio::select! {
        ended = notices => ended,
        failed = subscribe => failed,
    }
}

/// The id in one `<id>:<version>` (or `<id>:seats`) change of a notice, which lists the changes
/// of one statement separated by commas. The rest is not used: streams read the tables.
fn changed_id(payload: &str) -> Option<Uuid> {
    payload.split(':').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_names_the_changed_match_and_nothing_else_counts() {
        let id = Uuid::new_v4();
        assert_eq!(changed_id(&format!("{id}:12")), Some(id));
        assert_eq!(changed_id("not-an-id:3"), None);
        assert_eq!(changed_id(""), None);
    }

    #[test]
    fn a_notice_of_a_batch_names_every_match_it_moved() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let notice = format!("{a}:7,{b}:12");
        let ids: Vec<_> = notice.split(',').filter_map(changed_id).collect();
        assert_eq!(ids, vec![a, b]);
    }
}
