//! The database layer in the browser. Its rows are read off the UI thread
//! ([`Poller`]): at start, every [`POLL`], and at once after the browser
//! writes one. A read that brings other rows, or another standing
//! ([`DbLink`]), rescans the catalog with them; a server that goes away
//! leaves the rows read last on screen, marked stale, until it is back.

use super::app::App;
pub use super::state::{DbFeed, DbLink};
use crate::engine::catalog::{Catalog, Source};
use crate::engine::layers::{read_db, DbLocation, DbRead, Layers};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// How often the rows are read again.
pub const POLL: Duration = Duration::from_secs(5);

/// Reads a user's rows on a thread of its own until dropped.
pub struct Poller {
    wake: mpsc::Sender<()>,
}

impl Poller {
    /// Reads now and every [`POLL`], handing each read to `send` (the
    /// thread ends when `send` says no one listens, or the poller is dropped).
    pub fn start(location: DbLocation, user: String, send: impl Fn(DbRead) -> bool + Send + 'static) -> Poller {
        let (wake, woken) = mpsc::channel();
        std::thread::spawn(move || loop {
            if !send(read_db(&location, &user)) {
                return;
            }
            if let Err(mpsc::RecvTimeoutError::Disconnected) = woken.recv_timeout(POLL) {
                return;
            }
        });
        Poller { wake }
    }

    /// Reads again now.
    pub fn poll_now(&self) {
        let _ = self.wake.send(());
    }
}

impl DbFeed {
    /// The rows of a database read now, on this thread (a local SQLite
    /// file, tests).
    pub fn read_now(layers: Option<&Layers>) -> DbFeed {
        match layers.and_then(|l| l.db.as_ref().map(|db| read_db(db, &l.user))) {
            Some(read) => DbFeed::answered(read),
            None => DbFeed { link: DbLink::Live, rows: Arc::default() },
        }
    }

    fn answered(read: DbRead) -> DbFeed {
        let link = if read.problem.is_some() { DbLink::Unavailable } else { DbLink::Live };
        DbFeed { link, rows: Arc::new(read) }
    }

    /// What a new read makes of this feed, or `None` when nothing shown changes.
    pub fn after(&self, read: DbRead, now: &str) -> Option<DbFeed> {
        let lost = read.problem.as_ref().filter(|p| p.is_connection());
        let had_rows = matches!(self.link, DbLink::Live | DbLink::Stale { .. }) && !self.rows.skills.is_empty();
        let next = match lost {
            Some(error) if had_rows => {
                let since = match &self.link {
                    DbLink::Stale { since, .. } => since.clone(),
                    _ => now.to_owned(),
                };
                DbFeed { link: DbLink::Stale { since, error: error.to_string() }, rows: self.rows.clone() }
            }
            _ => DbFeed::answered(read),
        };
        let same = next.link == self.link && *next.rows == *self.rows;
        (!same).then_some(next)
    }

    /// Marks the catalog's db root with the feed's standing: its label,
    /// and a problem when the rows are stale.
    pub fn mark(&self, catalog: &mut Catalog) {
        let Some(root) = catalog.roots.iter_mut().find(|r| r.source == Some(Source::Db)) else { return };
        root.label = match &self.link {
            DbLink::Connecting => "db (connecting…)".into(),
            DbLink::Live => "db".into(),
            DbLink::Unavailable => "db (unavailable)".into(),
            DbLink::Stale { since, .. } => format!("db (stale since {since})"),
        };
        if let DbLink::Stale { since, error } = &self.link {
            catalog.problems.push(format!("database skills stale (the rows read before {since} are shown): {error}"));
        }
    }

    /// A short word for the status line while the rows shown may not be
    /// the table's (an unavailable table is among the home's problems).
    pub fn status(&self) -> Option<&'static str> {
        match self.link {
            DbLink::Connecting => Some("db connecting…"),
            DbLink::Live | DbLink::Unavailable => None,
            DbLink::Stale { .. } => Some("db stale"),
        }
    }
}

impl App {
    /// A read of the database arrived: true when the catalog must be
    /// rebuilt with it.
    pub fn db_polled(&mut self, read: DbRead) -> bool {
        let now = clock_time((self.clock)());
        match self.db.after(read, &now) {
            Some(next) => {
                self.db = next;
                true
            }
            None => false,
        }
    }
}

/// `HH:MM:SS` (UTC) of a time in microseconds.
fn clock_time(micros: crate::engine::isotime::Micros) -> String {
    let secs = micros.div_euclid(1_000_000).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", secs / 3600, secs % 3600 / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::layers::{DbError, DbSkill};

    fn rows(names: &[&str]) -> DbRead {
        let skill = |name: &&str| DbSkill {
            id: (*name).to_owned(),
            user_id: "alice".into(),
            name: (*name).to_owned(),
            description: String::new(),
            content: String::new(),
            category: None,
            version: None,
            updated_at: String::new(),
        };
        DbRead { skills: names.iter().map(skill).collect(), problem: None }
    }

    fn failed(problem: DbError) -> DbRead {
        DbRead { skills: Vec::new(), problem: Some(problem) }
    }

    #[test]
    fn a_lost_server_keeps_the_rows_stale_until_it_is_back() {
        let live = DbFeed::default().after(rows(&["a", "b"]), "10:00:00").expect("first rows");
        assert_eq!(live.link, DbLink::Live);
        assert_eq!(live.after(rows(&["a", "b"]), "10:00:05"), None, "the same rows change nothing");

        let away = || failed(DbError::Unreachable { at: "postgres://u@h:5432/d".into(), message: "refused".into() });
        let stale = live.after(away(), "10:00:10").expect("stale");
        assert!(matches!(&stale.link, DbLink::Stale { since, .. } if since == "10:00:10"));
        assert_eq!(stale.rows.skills.len(), 2, "the rows stay");
        assert_eq!(stale.after(away(), "10:00:15"), None, "still away, still stale since 10:00:10");

        let back = stale.after(rows(&["a"]), "10:00:20").expect("back");
        assert_eq!((back.link.clone(), back.rows.skills.len()), (DbLink::Live, 1));

        // The server answered: the table is gone, and so are the rows.
        let gone = back.after(failed(DbError::NoTable { at: "d".into(), wrong_table_found: false }), "10:00:25");
        let gone = gone.expect("unavailable");
        assert_eq!((gone.link, gone.rows.skills.len()), (DbLink::Unavailable, 0));
    }

    #[test]
    fn without_rows_a_failure_is_unavailable_not_stale() {
        let away = failed(DbError::Timeout { at: "d".into(), what: "connect", after: Duration::from_secs(5) });
        let next = DbFeed::default().after(away, "09:00:00").expect("answered");
        assert_eq!(next.link, DbLink::Unavailable);
        assert_eq!(next.status(), None, "the problem is listed with the home's");
    }
}
