//! The service's shutdown: on SIGTERM the open event streams end at once (their last comment
//! says why) and the process exits, instead of waiting for the streams' time to run out.

use crate::support::*;
use std::io::Read;
use std::time::Duration;

#[test]
fn sigterm_ends_ten_open_streams_and_the_process_exits() {
    let db = fresh_db();
    // streams that would otherwise stay open for an hour
    let mut server = Server::start(&db.url, &[("STREAM_MAX_SECONDS", "3600")]);
    let streams: Vec<_> = (0..10).map(|_| server.open_stream()).collect();
    let status = server.terminate(Duration::from_secs(5));
    assert!(status.success(), "exit {status}: {}", server.log_text());
    for mut s in streams {
        let mut rest = Vec::new();
        // the server closed the connection: the read ends (the timeout would fail it)
        s.read_to_end(&mut rest).expect("the stream's end");
        let rest = String::from_utf8_lossy(&rest);
        assert!(
            rest.contains(": the service is shutting down; reconnect with Last-Event-ID"),
            "{rest}"
        );
    }
}
