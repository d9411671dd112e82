//! `players`: club members and guests (docs/rules/README.md#players-and-ratings). Contact data lives here but is only shown to
//! leaders and admins.

use crate::ids::PlayerId;
use crate::publication::{Audience, Publication};
use crate::store::schema::players;
use crate::store::{DbConn, MultiBackend};
use chrono::NaiveDateTime;
use clubcomp_engine::Membership;
use diesel::prelude::*;

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// A stored player.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = players, check_for_backend(MultiBackend))]
pub struct Player {
    /// The player's id.
    pub id: PlayerId,
    /// The full name.
    pub name: String,
    /// The KNSB (federation) membership number.
    pub knsb_number: Option<String>,
    /// The FIDE id.
    pub fide_id: Option<String>,
    /// Parsed when the row is read: a stored membership that names no known value fails the
    /// query (an internal error naming the value).
    #[diesel(deserialize_as = String)]
    pub membership: Membership,
    /// Whether the player is still playing; results keep an inactive player.
    pub active: bool,
    /// The e-mail address (contact data: never shown to anonymous clients).
    pub email: Option<String>,
    /// The telephone number (contact data).
    pub phone: Option<String>,
    /// Raised by every change (the `ETag`).
    pub version: i64,
    /// When the player was added (UTC).
    pub created_at: NaiveDateTime,
    /// When the player was changed last (UTC).
    pub updated_at: NaiveDateTime,
    /// How the name is shown to readers who are not officers (`full`, `initials`, `hidden`).
    pub publication: Publication,
}

impl Player {
    /// The row as the current reader may see it: the name replaced by the initials or the
    /// neutral label its publication asks for ([`crate::publication::shown`]), and then no
    /// KNSB number or FIDE id (they identify the person in public lists).
    pub fn as_read(mut self) -> Player {
        if !crate::publication::current().sees_full(self.id, self.publication) {
            self.name = crate::publication::shown(self.id, &self.name, self.publication);
            self.knsb_number = None;
            self.fide_id = None;
        }
        self
    }

    /// Whether the current reader may not see this player at all (a hidden player to the
    /// public): their page is not found.
    pub fn hidden_from_reader(&self) -> bool {
        crate::publication::hidden_from_reader(self.id, self.publication)
    }
}

/// Insert form.
#[derive(Debug, Insertable)]
#[diesel(table_name = players)]
pub struct NewPlayer {
    /// The full name.
    pub name: String,
    /// The KNSB membership number.
    pub knsb_number: Option<String>,
    /// The FIDE id.
    pub fide_id: Option<String>,
    /// `fixed` or `flexible` (or `guest`).
    pub membership: String,
    /// Whether the player is playing.
    pub active: bool,
    /// The e-mail address.
    pub email: Option<String>,
    /// The telephone number.
    pub phone: Option<String>,
    /// The first version (1).
    pub version: i64,
    /// When the player is added (UTC).
    pub created_at: NaiveDateTime,
    /// The same as `created_at`.
    pub updated_at: NaiveDateTime,
}

impl NewPlayer {
    /// A guest: a player without club membership, known by name only (the blitz
    /// championship's walk-ins), active from `now`.
    pub fn guest(name: String, now: NaiveDateTime) -> NewPlayer {
        NewPlayer {
            name,
            knsb_number: None,
            fide_id: None,
            membership: clubcomp_engine::Membership::Guest.into(),
            active: true,
            email: None,
            phone: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }
}

/// Update form: `None` leaves a column as it is; `Some(None)` clears a nullable column.
#[derive(Debug, Default, AsChangeset)]
#[diesel(table_name = players)]
pub struct PlayerChanges {
    /// A new name.
    pub name: Option<String>,
    /// A new KNSB number (`Some(None)` removes it).
    pub knsb_number: Option<Option<String>>,
    /// A new FIDE id (`Some(None)` removes it).
    pub fide_id: Option<Option<String>>,
    /// A new membership.
    pub membership: Option<String>,
    /// Whether the player is playing.
    pub active: Option<bool>,
    /// A new address (`Some(None)` removes it).
    pub email: Option<Option<String>>,
    /// A new telephone number (`Some(None)` removes it).
    pub phone: Option<Option<String>>,
    /// A new publication setting.
    pub publication: Option<Publication>,
}

/// Inserts a player.
pub fn insert(conn: &mut DbConn, new: &NewPlayer) -> QueryResult<Player> {
    diesel::insert_into(players::table)
        .values(new)
        .returning(players::all_columns)
        .get_result(conn)
        .map(Player::as_read)
}

/// Finds a player.
pub fn by_id(conn: &mut DbConn, id: PlayerId) -> QueryResult<Option<Player>> {
    players::table
        .find(id)
        .select(Player::as_select())
        .first(conn)
        .optional()
        .map(|p| p.map(Player::as_read))
}

/// Applies changes, bumps the version and the update time.
pub fn update(
    conn: &mut DbConn,
    id: PlayerId,
    changes: &PlayerChanges,
    at: NaiveDateTime,
) -> QueryResult<Player> {
    diesel::update(players::table.find(id))
        .set((
            changes,
            players::version.eq(players::version + 1),
            players::updated_at.eq(at),
        ))
        .returning(players::all_columns)
        .get_result(conn)
        .map(Player::as_read)
}

/// A page of players, by name then id, with an optional case-insensitive name search and
/// active filter; returns the page and the total count. A reader who is not an officer finds
/// no hidden player (but their own) and searches only the names they may see in full.
pub fn search(
    conn: &mut DbConn,
    q: Option<&str>,
    active: Option<bool>,
    limit: i64,
    offset: i64,
) -> QueryResult<(Vec<Player>, i64)> {
    let build = || {
        let mut query = players::table.into_boxed::<MultiBackend>();
        if let Some(q) = q {
            let pattern = format!(
                "%{}%",
                q.to_lowercase().replace('%', "\\%").replace('_', "\\_")
            );
            query = query.filter(lower(players::name).like(pattern).escape('\\'));
        }
        if let Some(a) = active {
            query = query.filter(players::active.eq(a));
        }
        let (hidden, full) = (Publication::Hidden, Publication::Full);
        match crate::publication::current() {
            Audience::Full => {}
            Audience::Public => {
                query = query.filter(players::publication.ne(hidden));
                if q.is_some() {
                    query = query.filter(players::publication.eq(full));
                }
            }
            Audience::Member(own) => {
                query = query.filter(players::publication.ne(hidden).or(players::id.eq(own)));
                if q.is_some() {
                    query = query.filter(players::publication.eq(full).or(players::id.eq(own)));
                }
            }
        }
        query
    };
    let total = build().count().get_result(conn)?;
    let rows = build()
        .order((players::name, players::id))
        .limit(limit)
        .offset(offset)
        .select(Player::as_select())
        .load(conn)?;
    Ok((rows.into_iter().map(Player::as_read).collect(), total))
}

/// Players by id (those that exist).
pub fn by_ids(conn: &mut DbConn, ids: &[PlayerId]) -> QueryResult<Vec<Player>> {
    players::table
        .filter(players::id.eq_any(ids))
        .select(Player::as_select())
        .load(conn)
        .map(|rows| rows.into_iter().map(Player::as_read).collect())
}

/// Players by KNSB number.
pub fn by_knsb_numbers(conn: &mut DbConn, numbers: &[String]) -> QueryResult<Vec<Player>> {
    players::table
        .filter(players::knsb_number.eq_any(numbers))
        .select(Player::as_select())
        .load(conn)
        .map(|rows| rows.into_iter().map(Player::as_read).collect())
}

/// Players by FIDE id.
pub fn by_fide_ids(conn: &mut DbConn, ids: &[String]) -> QueryResult<Vec<Player>> {
    players::table
        .filter(players::fide_id.eq_any(ids))
        .select(Player::as_select())
        .load(conn)
        .map(|rows| rows.into_iter().map(Player::as_read).collect())
}
