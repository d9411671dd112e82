//! A member's own choices for the club's mails: the language, and each kind of notification on
//! or off. A choice not made is the club's default.

use crate::error::ApiResult;
use crate::ids::PlayerId;
use crate::store::DbConn;
use crate::store::schema::member_preferences as mp;
use crate::vocab::NotifyKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// The language of `player`'s mails, when they chose one.
pub fn language(c: &mut DbConn, player: PlayerId) -> ApiResult<Option<String>> {
    Ok(mp::table
        .find(player)
        .select(mp::language)
        .first::<Option<String>>(c)
        .optional()?
        .flatten())
}

/// Sets the language of `player`'s mails (`nl` or `en`, checked by the caller); a row is made
/// when they had none.
pub fn set_language(
    c: &mut DbConn,
    player: PlayerId,
    lang: &str,
    now: NaiveDateTime,
) -> ApiResult<()> {
    let changed = diesel::update(mp::table.find(player))
        .set((mp::language.eq(lang), mp::updated_at.eq(now)))
        .execute(c)?;
    if changed == 0 {
        diesel::insert_into(mp::table)
            .values((
                mp::player_id.eq(player),
                mp::language.eq(lang),
                mp::updated_at.eq(now),
            ))
            .execute(c)?;
    }
    Ok(())
}

/// Forgets `player`'s mail preferences (an erased member: [`crate::services::erasure`]).
pub fn forget(c: &mut DbConn, player: PlayerId) -> ApiResult<()> {
    diesel::delete(mp::table.find(player)).execute(c)?;
    Ok(())
}

/// A member's notification choices as stored: each kind on, off or not chosen (`None`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Queryable)]
pub struct Stored {
    /// Pairings published.
    pub pairing: Option<bool>,
    /// Reminders before the sign-up deadline.
    pub reminder: Option<bool>,
    /// Results of their own games.
    pub result: Option<bool>,
    /// Decisions on claims, appeals and protests in their games.
    pub decision: Option<bool>,
    /// Prizes of a half.
    pub prizes: Option<bool>,
}

impl Stored {
    /// The choice for `kind`, when one was made.
    pub fn get(&self, kind: NotifyKind) -> Option<bool> {
        match kind {
            NotifyKind::Pairing => self.pairing,
            NotifyKind::Reminder => self.reminder,
            NotifyKind::Result => self.result,
            NotifyKind::Decision => self.decision,
            NotifyKind::Prizes => self.prizes,
        }
    }

    /// Whether `kind` is on: the choice, else the club's default.
    pub fn on(&self, kind: NotifyKind, defaults: &[NotifyKind]) -> bool {
        self.get(kind).unwrap_or_else(|| defaults.contains(&kind))
    }
}

/// The stored notification choices of `player` (all `None` when they made none).
pub fn stored(c: &mut DbConn, player: PlayerId) -> ApiResult<Stored> {
    Ok(mp::table
        .find(player)
        .select((
            mp::pairing,
            mp::reminder,
            mp::result,
            mp::decision,
            mp::prizes,
        ))
        .first::<Stored>(c)
        .optional()?
        .unwrap_or_default())
}

/// The stored notification choices and chosen language of each of `players` that has a row
/// (one query).
pub fn of_players(
    c: &mut DbConn,
    players: &[PlayerId],
) -> ApiResult<std::collections::HashMap<PlayerId, (Stored, Option<String>)>> {
    let rows: Vec<(PlayerId, Stored, Option<String>)> = mp::table
        .filter(mp::player_id.eq_any(players))
        .select((
            mp::player_id,
            (
                mp::pairing,
                mp::reminder,
                mp::result,
                mp::decision,
                mp::prizes,
            ),
            mp::language,
        ))
        .load(c)?;
    Ok(rows.into_iter().map(|(p, s, l)| (p, (s, l))).collect())
}

/// The stored notification choices and the chosen language of `player`.
pub fn choices(c: &mut DbConn, player: PlayerId) -> ApiResult<(Stored, Option<String>)> {
    Ok((stored(c, player)?, language(c, player)?))
}

/// Whether `player` gets mails of `kind` (their choice, else the club's `defaults`).
pub fn kind_on(
    c: &mut DbConn,
    player: PlayerId,
    kind: NotifyKind,
    defaults: &[NotifyKind],
) -> ApiResult<bool> {
    Ok(stored(c, player)?.on(kind, defaults))
}

/// Sets every notification choice and the language of `player` (checked by the caller); a
/// row is made when they had none.
pub fn set_all(
    c: &mut DbConn,
    player: PlayerId,
    choices: &Stored,
    lang: Option<&str>,
    now: NaiveDateTime,
) -> ApiResult<()> {
    let values = (
        mp::language.eq(lang),
        mp::pairing.eq(choices.pairing),
        mp::reminder.eq(choices.reminder),
        mp::result.eq(choices.result),
        mp::decision.eq(choices.decision),
        mp::prizes.eq(choices.prizes),
        mp::updated_at.eq(now),
    );
    let changed = diesel::update(mp::table.find(player))
        .set(values)
        .execute(c)?;
    if changed == 0 {
        diesel::insert_into(mp::table)
            .values((mp::player_id.eq(player), values))
            .execute(c)?;
    }
    Ok(())
}

/// Turns notifications of `kind` off for `player` (a row is made when they had none).
pub fn turn_off(
    c: &mut DbConn,
    player: PlayerId,
    kind: NotifyKind,
    now: NaiveDateTime,
) -> ApiResult<()> {
    let mut s = stored(c, player)?;
    match kind {
        NotifyKind::Pairing => s.pairing = Some(false),
        NotifyKind::Reminder => s.reminder = Some(false),
        NotifyKind::Result => s.result = Some(false),
        NotifyKind::Decision => s.decision = Some(false),
        NotifyKind::Prizes => s.prizes = Some(false),
    }
    let lang = language(c, player)?;
    set_all(c, player, &s, lang.as_deref(), now)
}
